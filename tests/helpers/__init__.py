"""Helpers the tests share (data builders, constants, CLI runners); fixtures stay in conftest.py."""
