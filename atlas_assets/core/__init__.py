"""Building blocks shared by every domain: content hashing, atomic writes, artifact storage."""
