"""Names every loader gets in the tests: (name, the field part its message shows, what it says)."""

HOSTILE_NAMES = [
    ("a|b", "'a|b'", "contains '|' (Dagster's multi-partition delimiter)"),
    ("x...y", "'x...y'", "contains '...' (Dagster's partition-range separator)"),
    ("", "''", "is empty"),
    ("   ", "'   '", "is only whitespace"),
    ("a\nb", "'a\\nb'", "contains a newline (LF)"),
    ("x" * 300, "'" + "x" * 40 + "'…", "is 300 bytes long in UTF-8"),
    ("a,b", "'a,b'", "contains ','"),
    ("a[b", "'a[b'", "contains '['"),
    ("a]b", "'a]b'", "contains ']'"),
    (" lead", "' lead'", "starts or ends with whitespace"),
    ("trail ", "'trail '", "starts or ends with whitespace"),
    ("a/b", "'a/b'", "contains a path separator"),
    ("a\u200bb", "'a\\u200bb'", "contains the invisible character U+200B ZERO WIDTH SPACE"),  # shown escaped
]
GOOD_UNICODE = "modèle-ü"  # Dagster takes it as a partition key, and so do engines and generations
