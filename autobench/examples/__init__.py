"""Example generators and benchmark tasks used by the docs and tests."""
