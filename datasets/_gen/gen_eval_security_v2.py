# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-security-v2: defensive security knowledge and analysis (second wave).

Five categories x easy/medium/hard x 17 rows, mixing `exact`, `numeric` and `mc`:

* toy_crypto -- Caesar/ROT13/Vigenere/XOR/Base64/hex decoding of generated phrases, and
  hash identification from digests computed with hashlib; every ciphertext is produced
  by encrypting here and decrypted again to prove the answer;
* cidr -- IPv4/IPv6 subnet arithmetic (sizes, masks, network/broadcast addresses,
  membership, covering supernets, subnet enumeration, range summaries), every answer
  computed with the ipaddress module and re-derived with integer arithmetic;
* vuln_classification -- generated code snippets (Python, JavaScript, C, PHP, Java) that
  contain exactly one weakness class (CWE) or none; the generator inserts the weakness and
  an independent pattern check confirms that exactly the intended class is present;
* log_forensics -- generated authentication and web-server logs; questions about
  brute-force sources, compromised accounts, probes and timings are answered by parsing
  the rendered log text back (not from the generator's own event list, which is used only
  to cross-check);
* incident_response -- traps where the obvious reading is wrong: time zones in a
  timeline, near-miss indicator hashes, lookalike domains, double file extensions,
  evidence volatility (RFC 3227's order of volatility), alert thresholds.

Defensive only: no item asks for an exploit, malware or an attack procedure.

    python datasets/_gen/gen_eval_security_v2.py [--out DIR]
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import ipaddress
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-security-v2"
SEED = 9_300_002
PER_CELL = 17

PHRASE_WORDS = ["meet", "at", "the", "north", "gate", "after", "lunch", "bring", "blue", "folder", "backup", "runs", "tonight", "rotate",
                "keys", "on", "friday", "lamp", "river", "seven", "quiet", "garden", "window", "copper", "ticket", "orange", "planet", "ladder"]


def phrase(rng: random.Random, k: int) -> str:
    return " ".join(rng.choice(PHRASE_WORDS) for _ in range(k))


def caesar(text: str, shift: int) -> str:
    out = []
    for ch in text:
        if ch.isalpha() and ch.isascii():
            base = ord("a") if ch.islower() else ord("A")
            out.append(chr(base + (ord(ch) - base + shift) % 26))
        else:
            out.append(ch)
    return "".join(out)


def vigenere(text: str, key: str, sign: int = 1) -> str:
    out, j = [], 0
    for ch in text:
        if ch.isalpha():
            out.append(chr(ord("a") + (ord(ch) - ord("a") + sign * (ord(key[j % len(key)]) - ord("a"))) % 26))
            j += 1
        else:
            out.append(ch)
    return "".join(out)


# --- toy crypto ---------------------------------------------------------------------------


def tc_caesar(S, rng, diff, cat):
    plain = phrase(rng, {"easy": 3, "medium": 4, "hard": 5}[diff])
    if diff == "easy":
        shift = rng.randrange(1, 26)
        cipher = caesar(plain, shift)
        q = f"The message \"{cipher}\" was encrypted with a Caesar cipher that shifts each letter {shift} places forward in the alphabet. What is the plaintext?"
    elif diff == "medium":
        shift = rng.randrange(1, 26)
        cipher = caesar(plain, shift)
        crib = plain.split()[0]
        q = f"The message \"{cipher}\" was encrypted with a Caesar cipher of unknown shift. The plaintext begins with the word \"{crib}\". What is the full plaintext?"
    else:
        key = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randrange(3, 6)))
        cipher = vigenere(plain, key)
        assert vigenere(cipher, key, -1) == plain
        q = (f"The message \"{cipher}\" was encrypted with a Vigenère cipher with the key \"{key}\" (a = shift 0; the key advances only on letters, "
             "spaces are kept). What is the plaintext?")
    if diff != "hard":
        assert caesar(cipher, -shift) == plain
    return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the plaintext only, in lowercase.", answer=plain, scorer="exact",
                 meta={"why": "decrypted and re-encrypted here"})


def tc_encodings(S, rng, diff, cat):
    plain = phrase(rng, {"easy": 2, "medium": 3, "hard": 3}[diff])
    if diff == "easy":
        enc = base64.b64encode(plain.encode()).decode()
        q = f"Decode this Base64 string to text: {enc}"
        why = "base64.b64decode"
    elif diff == "medium":
        enc = plain.encode().hex()
        q = f"Decode these hexadecimal bytes as ASCII text: {enc}"
        why = "bytes.fromhex"
    else:
        enc = base64.b64encode(caesar(plain, 13).encode()).decode()
        q = f"A note contains the string {enc}. It is Base64 wrapped around ROT13. What is the underlying text?"
        assert caesar(base64.b64decode(enc).decode(), 13) == plain
        why = "base64 then ROT13"
    return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the decoded text only.", answer=plain, scorer="exact", meta={"why": why})


def tc_xor(S, rng, diff, cat):
    plain = phrase(rng, {"easy": 2, "medium": 3, "hard": 3}[diff])
    key = rng.randrange(1, 256)
    cipher = bytes(b ^ key for b in plain.encode())
    if diff == "hard":
        known = plain[0]
        q = (f"The hex string {cipher.hex()} is ASCII text XORed with a single unknown key byte. The text starts with the letter \"{known}\". "
             "What is the key byte, in two-digit hexadecimal?")
        assert cipher[0] ^ ord(known) == key
        return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the two hex digits only (for example 3f).", answer=f"{key:02x}", scorer="exact",
                     meta={"why": f"0x{cipher[0]:02x} XOR '{known}' = 0x{key:02x}", "plaintext": plain})
    assert bytes(b ^ key for b in cipher).decode() == plain
    q = f"The hex string {cipher.hex()} is ASCII text XORed byte by byte with the key 0x{key:02x}. What is the text?"
    return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the text only.", answer=plain, scorer="exact", meta={"why": "XOR with the key again"})


HASHES = {"md5": "MD5", "sha1": "SHA-1", "sha256": "SHA-256", "sha512": "SHA-512", "sha384": "SHA-384", "sha224": "SHA-224"}


def tc_hash(S, rng, diff, cat):
    word = phrase(rng, 2)
    algo = rng.choice({"easy": ["md5", "sha256", "sha512"], "medium": ["md5", "sha1", "sha256", "sha512"], "hard": list(HASHES)}[diff])
    digest = hashlib.new(algo, word.encode()).hexdigest()
    assert len(digest) == hashlib.new(algo).digest_size * 2
    if diff == "hard":
        # SHA-384 vs SHA-512/224 etc. differ only by length; ask for the length-derived family
        q = f"A log records a {len(digest)}-hex-character digest: {digest}. Which of these standard algorithms produces digests of exactly this length?"
    else:
        q = f"An analyst finds the hex digest {digest}. Judging by its length, which hash algorithm most likely produced it?"
    others = [HASHES[a] for a in HASHES if hashlib.new(a).digest_size != hashlib.new(algo).digest_size]
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=HASHES[algo], distractors=rng.sample(others, len(others)),
                    meta={"why": f"{HASHES[algo]} digests are {hashlib.new(algo).digest_size * 8} bits = {len(digest)} hex characters", "input": word})


# --- CIDR -----------------------------------------------------------------------------------


def rand_net(rng, lo, hi):
    prefix = rng.randrange(lo, hi + 1)
    base = rng.choice([10 << 24, (172 << 24) | (16 << 16), (192 << 24) | (168 << 16), (100 << 24) | (64 << 16)])
    addr = base + rng.randrange(0, 1 << 16)
    return ipaddress.ip_network((addr, prefix), strict=False), ipaddress.ip_address(addr)


def ci_size(S, rng, diff, cat):
    net, ip = rand_net(rng, {"easy": 20, "medium": 16, "hard": 8}[diff], 30)
    kind = rng.choice(["addresses", "usable", "mask"])
    p = net.prefixlen
    if kind == "addresses":
        v = net.num_addresses
        assert v == 2 ** (32 - p)
        q = f"How many IPv4 addresses does a /{p} network contain in total?" if diff == "easy" else f"How many IPv4 addresses are in the block {net}?"
        return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the number only.", answer=v, scorer="numeric", meta={"why": f"2^(32 − {p})"})
    if kind == "usable":
        v = net.num_addresses - 2
        assert v == sum(1 for _ in net.hosts()) if p >= 18 else v == 2 ** (32 - p) - 2
        return S.add(category=cat, difficulty=diff, prompt=f"How many usable host addresses does the subnet {net} have (excluding the network and broadcast addresses)? Reply with the number only.",
                     answer=v, scorer="numeric", meta={"why": f"2^(32 − {p}) − 2"})
    mask = str(net.netmask)
    assert int(ipaddress.ip_address(mask)) == (0xFFFFFFFF << (32 - p)) & 0xFFFFFFFF
    q = f"What is the dotted-decimal subnet mask of a /{p} prefix?"
    if diff == "hard":  # the inverse (wildcard) mask used in ACLs
        mask = str(net.hostmask)
        assert int(ipaddress.ip_address(mask)) == (1 << (32 - p)) - 1
        q = f"What is the wildcard (inverse) mask of a /{p} prefix, as used in access-control lists?"
    meta = {"why": f"{p} one-bits followed by {32 - p} zero-bits"}
    if rng.random() < 0.5:
        wrong = [str(ipaddress.ip_network(f"0.0.0.0/{x}").netmask) for x in (p - 1, p + 1, p + 2) if 0 < x <= 32] + [str(net.hostmask)]
        return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=mask, distractors=wrong, meta=meta)
    return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the mask only.", answer=mask, scorer="exact", meta=meta)


def ci_bounds(S, rng, diff, cat):
    net, ip = rand_net(rng, {"easy": 24, "medium": 19, "hard": 9}[diff], {"easy": 24, "medium": 28, "hard": 30}[diff])
    p = net.prefixlen
    mask = (0xFFFFFFFF << (32 - p)) & 0xFFFFFFFF
    netaddr = ipaddress.ip_address(int(ip) & mask)
    bcast = ipaddress.ip_address(int(ip) | (~mask & 0xFFFFFFFF))
    assert netaddr == net.network_address and bcast == net.broadcast_address
    kind = rng.choice(["network", "broadcast", "first", "last"] if diff != "easy" else ["network", "broadcast"])
    value = {"network": netaddr, "broadcast": bcast, "first": netaddr + 1, "last": bcast - 1}[kind]
    what = {"network": "network address", "broadcast": "broadcast address", "first": "first usable host address", "last": "last usable host address"}[kind]
    q = f"A host has the address {ip}/{p}. What is the {what} of its subnet?"
    if rng.random() < 0.6:
        return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the address only.", answer=str(value), scorer="exact", meta={"why": f"subnet {net}"})
    wrong = [str(x) for x in sorted({netaddr, bcast, netaddr + 1, bcast - 1, ip}) if x != value]
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=str(value), distractors=wrong, meta={"why": f"subnet {net}"})


def ci_member(S, rng, diff, cat):
    net, _ = rand_net(rng, {"easy": 24, "medium": 20, "hard": 11}[diff], {"easy": 24, "medium": 27, "hard": 29}[diff])
    cands = []
    for _ in range(4):
        inside = rng.random() < 0.5
        if inside:
            a = net.network_address + rng.randrange(net.num_addresses)
        else:
            off = rng.choice([-1, net.num_addresses]) + rng.choice([0, -rng.randrange(0, 3), rng.randrange(0, 3)])
            a = net.network_address + off if 0 <= int(net.network_address) + off < 2**32 else net.network_address - 1
        cands.append(a)
    if len(set(cands)) < len(cands):
        raise K.Redraw("repeated address")
    inside = [a for a in cands if a in net]
    # independent: integer comparison
    lo, hi = int(net.network_address), int(net.broadcast_address)
    assert inside == [a for a in cands if lo <= int(a) <= hi]
    listing = ", ".join(str(a) for a in cands)
    q = f"How many of these addresses fall inside {net}: {listing}? Reply with the number only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=len(inside), scorer="numeric", meta={"why": f"range {net.network_address}–{net.broadcast_address}", "inside": [str(a) for a in inside]})


def ci_subnets(S, rng, diff, cat):
    if diff == "easy":
        p, q = rng.randrange(16, 27), 0
        q = rng.randrange(p + 1, min(p + 6, 31))
        v = 2 ** (q - p)
        net, _ = rand_net(rng, p, p)
        assert v == len(list(net.subnets(new_prefix=q)))
        return S.add(category=cat, difficulty=diff, prompt=f"How many /{q} subnets fit in {net}? Reply with the number only.", answer=v, scorer="numeric", meta={"why": f"2^({q} − {p})"})
    if diff == "medium":
        net, _ = rand_net(rng, 16, 24)
        q = rng.randrange(net.prefixlen + 2, min(net.prefixlen + 6, 30))
        subs = list(net.subnets(new_prefix=q))
        k = rng.randrange(2, len(subs) + 1) if len(subs) > 2 else 2
        target = subs[k - 1]
        assert int(target.network_address) == int(net.network_address) + (k - 1) * 2 ** (32 - q)
        return S.add(category=cat, difficulty=diff, prompt=f"{net} is divided into /{q} subnets in address order. What is the {K.ordinal(k)} subnet? Reply in CIDR notation.",
                     answer=str(target), scorer="exact", meta={"why": f"network + {(k - 1)} × 2^(32 − {q})"})
    kind = rng.choice(["cover", "summary", "v6"])
    if kind == "cover":
        a = ipaddress.ip_address((10 << 24) + rng.randrange(0, 1 << 20))
        b = a + rng.randrange(1, 5000)
        p = 32
        while b not in ipaddress.ip_network((int(a), p), strict=False):  # widen until both fit
            p -= 1
        cover = ipaddress.ip_network((int(a), p), strict=False)
        common = 32 - (int(a) ^ int(b)).bit_length()  # independent: length of the common bit prefix
        assert common == p and a in cover
        return S.add(category=cat, difficulty=diff, prompt=f"What is the smallest single CIDR block that contains both {a} and {b}? Reply in CIDR notation.",
                     answer=str(cover), scorer="exact", meta={"why": f"{common} leading bits in common"})
    if kind == "summary":
        start = ipaddress.ip_address((192 << 24) | (168 << 16) | rng.randrange(0, 1 << 16))
        end = start + rng.randrange(5, 600)
        blocks = list(ipaddress.summarize_address_range(start, end))
        assert sum(b.num_addresses for b in blocks) == int(end) - int(start) + 1
        return S.add(category=cat, difficulty=diff, prompt=f"What is the minimum number of CIDR blocks needed to cover exactly the range {start} – {end}, nothing more? Reply with the number only.",
                     answer=len(blocks), scorer="numeric", meta={"why": f"ipaddress.summarize_address_range: {[str(b) for b in blocks]}"})
    p = rng.randrange(32, 57, 4)
    q = rng.randrange(p + 4, 65, 4)
    v = 2 ** (q - p)
    net = ipaddress.ip_network(f"2001:db8::/{p}") if p >= 32 else None
    assert v == 2 ** (net.max_prefixlen - p) // 2 ** (128 - q)
    return S.add(category=cat, difficulty=diff, prompt=f"How many /{q} IPv6 subnets does a /{p} allocation contain? Reply with the number only.", answer=v, scorer="numeric",
                 meta={"why": f"2^({q} − {p})"})


# --- vulnerability classification ------------------------------------------------------------

CWE = {
    "sqli": "SQL injection (CWE-89)",
    "cmdi": "OS command injection (CWE-78)",
    "path": "Path traversal (CWE-22)",
    "xss": "Cross-site scripting (CWE-79)",
    "creds": "Hard-coded credentials (CWE-798)",
    "deser": "Deserialization of untrusted data (CWE-502)",
    "weakhash": "Weak password hashing (CWE-916)",
    "overflow": "Buffer overflow (CWE-120)",
    "redirect": "Open redirect (CWE-601)",
    "none": "None of these: the snippet has none of the listed weaknesses",
}


def ident(rng, k=1):
    parts = ["user", "order", "item", "report", "file", "doc", "note", "name", "path", "query", "target", "host", "page", "token", "entry", "record"]
    return "_".join(rng.sample(parts, k)) if k > 1 else rng.choice(parts)


def snippet(rng: random.Random, kind: str, diff: str) -> tuple[str, str]:
    """(language, code) containing exactly the weakness `kind` ('none' = a safe variant)."""
    table = rng.choice(["orders", "customers", "invoices", "tickets", "devices", "shipments"])
    col = rng.choice(["id", "email", "serial", "ref", "code"])
    var = ident(rng)
    fn = rng.choice(["lookup", "fetch", "load", "find", "get"]) + "_" + rng.choice(["row", "record", "entry", "item"])
    indirect = diff != "easy"
    if kind in ("sqli", "none_sql"):
        if kind == "sqli":
            if diff == "hard":
                body = (f"    clause = \"{col} = '\" + {var} + \"'\"\n    sql = \"SELECT * FROM {table} WHERE \" + clause\n    return db.execute(sql).fetchall()")
            elif indirect:
                body = f"    sql = f\"SELECT * FROM {table} WHERE {col} = '{{{var}}}'\"\n    return db.execute(sql).fetchall()"
            else:
                body = f"    return db.execute(\"SELECT * FROM {table} WHERE {col} = '\" + {var} + \"'\").fetchall()"
        else:
            body = f"    sql = \"SELECT * FROM {table} WHERE {col} = ?\"\n    return db.execute(sql, ({var},)).fetchall()"
        return "Python", f"def {fn}(db, {var}):\n    # {var} comes from the request query string\n{body}\n"
    if kind in ("cmdi", "none_cmd"):
        tool = rng.choice(["ping", "nslookup", "traceroute", "whois"])
        if kind == "cmdi":
            body = (f"    cmd = \"{tool} -c 1 \" + {var}\n    return os.popen(cmd).read()" if indirect else f"    return os.system(\"{tool} \" + {var})")
            if diff == "hard":
                body = f"    args = [\"{tool}\", {var}]\n    return subprocess.run(\" \".join(args), shell=True, capture_output=True).stdout"
        else:
            body = f"    return subprocess.run([\"{tool}\", \"--\", {var}], capture_output=True, check=False).stdout"
        return "Python", f"def {fn}({var}):\n    # {var} is typed into a web form\n{body}\n"
    if kind in ("path", "none_path"):
        base = rng.choice(["/srv/uploads", "/var/app/files", "/data/reports"])
        if kind == "path":
            if diff == "hard":
                body = f"    clean = {var}.replace(\"../\", \"\")\n    with open(os.path.join(\"{base}\", clean), \"rb\") as f:\n        return f.read()"
            else:
                body = f"    with open(\"{base}/\" + {var}, \"rb\") as f:\n        return f.read()"
        else:
            body = (f"    root = os.path.realpath(\"{base}\")\n    full = os.path.realpath(os.path.join(root, {var}))\n"
                    f"    if os.path.commonpath([root, full]) != root:\n        raise PermissionError({var})\n    with open(full, \"rb\") as f:\n        return f.read()")
        return "Python", f"def {fn}({var}):\n    # {var} is the file name from the download URL\n{body}\n"
    if kind in ("xss", "none_xss"):
        el = rng.choice(["greeting", "banner", "status", "result"])
        if kind == "xss":
            code = (f"const params = new URLSearchParams(location.search);\nconst {var} = params.get(\"{var}\");\n"
                    f"document.getElementById(\"{el}\").innerHTML = \"Hello, \" + {var};\n")
            if diff == "hard":
                code = (f"const {var} = decodeURIComponent(location.hash.slice(1));\nconst html = `<b>${{{var}}}</b>`;\n"
                        f"document.querySelector(\"#{el}\").insertAdjacentHTML(\"beforeend\", html);\n")
        else:
            code = (f"const params = new URLSearchParams(location.search);\nconst {var} = params.get(\"{var}\");\n"
                    f"document.getElementById(\"{el}\").textContent = \"Hello, \" + {var};\n")
        return "JavaScript", code
    if kind == "creds":
        user = rng.choice(["admin", "svc_backup", "report_bot", "root"])
        pw = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10))
        return "Python", (f"def connect_{table}():\n    # connects the {table} service to the database\n"
                          f"    return psycopg.connect(host=\"db.internal\", user=\"{user}\", password=\"{pw}\", dbname=\"{table}\")\n")
    if kind == "deser":
        fmt = "pickle.loads(request.body)" if not indirect else f"pickle.loads(base64.b64decode(request.cookies[\"{var}\"]))"
        return "Python", f"def {fn}(request):\n    # restores the {var} settings sent by the browser\n    state = {fmt}\n    return state\n"
    if kind == "none_deser":
        return "Python", f"def {fn}(request):\n    # restores the {var} settings sent by the browser\n    state = json.loads(request.body)\n    return {{k: str(v) for k, v in state.items()}}\n"
    if kind == "weakhash":
        algo = rng.choice(["md5", "sha1"])
        return "Python", (f"def store_password(db, {var}, password):\n    digest = hashlib.{algo}(password.encode()).hexdigest()\n"
                          f"    db.execute(\"UPDATE accounts SET pw = ? WHERE login = ?\", (digest, {var}))\n")
    if kind == "none_hash":
        return "Python", (f"def store_password(db, {var}, password):\n    salt = os.urandom(16)\n"
                          f"    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)\n"
                          f"    db.execute(\"UPDATE accounts SET pw = ?, salt = ? WHERE login = ?\", (digest, salt, {var}))\n")
    if kind == "overflow":
        size = rng.choice([16, 32, 64])
        if diff == "hard":
            return "C", (f"void {fn}(const char *{var}) {{\n    char buf[{size}];\n    sprintf(buf, \"id=%s\", {var});\n    log_line(buf);\n}}\n")
        return "C", f"void {fn}(const char *{var}) {{\n    char buf[{size}];\n    strcpy(buf, {var});\n    log_line(buf);\n}}\n"
    if kind == "none_c":
        size = rng.choice([16, 32, 64])
        return "C", f"void {fn}(const char *{var}) {{\n    char buf[{size}];\n    snprintf(buf, sizeof buf, \"id=%s\", {var});\n    log_line(buf);\n}}\n"
    if kind == "redirect":
        return "JavaScript", (f"app.get(\"/{rng.choice(['login', 'logout', 'continue'])}\", (req, res) => {{\n"
                              f"  const next = req.query.{var};\n  res.redirect(next);\n}});\n")
    if kind == "none_redirect":
        return "JavaScript", (f"app.get(\"/{rng.choice(['login', 'logout', 'continue'])}\", (req, res) => {{\n"
                              f"  const next = req.query.{var};\n  const safe = [\"/home\", \"/account\", \"/orders\"].includes(next) ? next : \"/home\";\n  res.redirect(safe);\n}});\n")
    raise ValueError(kind)


def detect(code: str) -> set[str]:
    """An independent pattern check: which weakness classes does the code exhibit?"""
    found = set()
    if re.search(r"(execute\(\"SELECT[^\"]*'\" \+|f\"SELECT[^\"]*\{|\"SELECT \* FROM \w+ WHERE \" \+ clause)", code):
        found.add("sqli")
    if re.search(r"os\.system\(|os\.popen\(|shell=True", code):
        found.add("cmdi")
    if re.search(r"open\(\"/[\w/]+/\" \+|replace\(\"\.\./\", \"\"\)", code):
        found.add("path")
    if re.search(r"\.innerHTML\s*=|insertAdjacentHTML\(", code):
        found.add("xss")
    if re.search(r"password=\"[^\"]+\"", code):
        found.add("creds")
    if "pickle.loads(" in code:
        found.add("deser")
    if re.search(r"hashlib\.(md5|sha1)\(password", code):
        found.add("weakhash")
    if re.search(r"\bstrcpy\(|\bsprintf\(", code):
        found.add("overflow")
    if re.search(r"res\.redirect\(next\)", code):
        found.add("redirect")
    return found


def vu_classify(S, rng, diff, cat):
    kinds = ["sqli", "cmdi", "path", "xss", "creds", "deser", "weakhash", "overflow", "redirect"]
    safe = ["none_sql", "none_cmd", "none_path", "none_xss", "none_deser", "none_hash", "none_c", "none_redirect"]
    p_safe = {"easy": 0.1, "medium": 0.25, "hard": 0.35}[diff]
    kind = rng.choice(safe) if rng.random() < p_safe else rng.choice(kinds)
    lang, code = snippet(rng, kind, diff)
    found = detect(code)
    truth = "none" if kind.startswith("none") else kind
    assert found == (set() if truth == "none" else {truth}), (kind, found, code)
    options = [c for c in kinds if c != truth]
    rng.shuffle(options)
    distract = [CWE[c] for c in options[:3]] + ([CWE["none"]] if truth != "none" else [])
    stem = (f"Review this {lang} snippet from a web application. Which weakness does it contain?\n\n{code}")
    meta = {"weakness": truth, "why": "inserted by the generator; an independent pattern check finds exactly this class" if truth != "none" else "a safe variant: the pattern check finds no weakness"}
    return S.add_mc(rng, category=cat, difficulty=diff, stem=stem, correct=CWE[truth], distractors=distract, meta=meta, n=5 if diff == "hard" else 4)


def vu_fix(S, rng, diff, cat):
    """Which line is the vulnerable one (numeric), or which rewrite fixes it (mc)."""
    kind = rng.choice(["sqli", "cmdi", "path", "xss", "overflow", "deser"])
    lang, code = snippet(rng, kind, diff)
    lines = code.rstrip("\n").split("\n")
    pattern = {"sqli": r"\.execute\(", "cmdi": r"os\.system|os\.popen|shell=True", "path": r"\bopen\(",
               "xss": r"innerHTML|insertAdjacentHTML", "overflow": r"\bstrcpy\(|\bsprintf\(", "deser": r"pickle\.loads"}[kind]
    hits = [i + 1 for i, line in enumerate(lines) if re.search(pattern, line)]
    if len(hits) != 1:
        raise K.Redraw("ambiguous line")
    numbered = "\n".join(f"{i + 1:>2}  {line}" for i, line in enumerate(lines))
    q = f"The {lang} snippet below (lines numbered) contains one {CWE[kind].split(' (')[0].lower()} weakness. On which line is the dangerous operation (the sink that the untrusted input reaches) performed?\n\n{numbered}\n\nReply with the line number only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=hits[0], scorer="numeric", meta={"weakness": kind, "why": f"line {hits[0]}: {lines[hits[0] - 1].strip()}"})


# --- log forensics ---------------------------------------------------------------------------


def rand_ip(rng, private=False):
    if private:
        return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    # external addresses come from the RFC 5737 documentation blocks only
    return f"{rng.choice(['192.0.2', '198.51.100', '203.0.113'])}.{rng.randrange(1, 255)}"


def auth_log(rng, diff):
    """Events (time, ip, user, ok) with one brute-force source; rendered as text lines."""
    n_noise = {"easy": 8, "medium": 14, "hard": 22}[diff]
    users = rng.sample(["alice", "bob", "carol", "dmitri", "erin", "farid", "gwen", "hiro", "ines", "jonas", "kemal", "lena"], 6)
    attacker = rand_ip(rng)
    t = dt.datetime(2025, rng.randrange(1, 13), rng.randrange(1, 28), rng.randrange(0, 20), rng.randrange(60), rng.randrange(60))
    events = []
    for _ in range(n_noise):
        t += dt.timedelta(seconds=rng.randrange(20, 600))
        ip = rand_ip(rng, private=True) if rng.random() < 0.7 else rand_ip(rng)
        events.append((t, ip, rng.choice(users), rng.random() < 0.8))
    victim = rng.choice(users)
    n_fail = rng.randrange(6, 15)
    tb = t - dt.timedelta(seconds=rng.randrange(300, 3000))
    targeted = set()
    for i in range(n_fail):
        tb += dt.timedelta(seconds=rng.randrange(2, 9))
        u = victim if (i > n_fail // 2 or rng.random() < 0.4) else rng.choice(users)
        targeted.add(u)
        events.append((tb, attacker, u, False))
    compromised = diff != "easy" or rng.random() < 0.5
    if compromised:
        tb += dt.timedelta(seconds=rng.randrange(2, 9))
        events.append((tb, attacker, victim, True))
        targeted.add(victim)
    # a decoy: an internal host with a couple of failures
    decoy = rand_ip(rng, private=True)
    for _ in range(rng.randrange(2, 4)):
        tb2 = t - dt.timedelta(seconds=rng.randrange(100, 4000))
        events.append((tb2, decoy, rng.choice(users), False))
    events.sort()
    host = rng.choice(["bastion", "gw01", "jump-2", "edge-a"])
    lines = []
    for when, ip, u, ok in events:
        port = rng.randrange(32768, 61000)
        lines.append(f"{when:%Y-%m-%dT%H:%M:%S}Z {host} authd: {'ACCEPT' if ok else 'REJECT'} password for {u} from {ip} port {port}")
    return lines, {"attacker": attacker, "victim": victim, "compromised": compromised, "targeted": targeted}


LINE_RE = re.compile(r"^(\S+)Z \S+ authd: (ACCEPT|REJECT) password for (\S+) from (\S+) port \d+$")


def parse_auth(lines):
    out = []
    for line in lines:
        m = LINE_RE.match(line)
        assert m, line
        out.append((m.group(1), m.group(2) == "ACCEPT", m.group(3), m.group(4)))
    return out


def lf_auth(S, rng, diff, cat):
    lines, truth = auth_log(rng, diff)
    parsed = parse_auth(lines)
    fails: dict[str, int] = {}
    for _, ok, _, ip in parsed:
        if not ok:
            fails[ip] = fails.get(ip, 0) + 1
    top = max(fails, key=lambda k: fails[k])
    if top != truth["attacker"] or sorted(fails.values())[-1] == sorted(fails.values())[-2]:
        raise K.Redraw("the brute-force source is not the unique top source")
    log = "\n".join(lines)
    kind = rng.choice({"easy": ["top", "count"], "medium": ["top", "users", "victim"], "hard": ["victim", "first_ok", "users"]}[diff])
    if kind == "top":
        q = f"Here is an authentication log:\n\n{log}\n\nWhich source IP address has the most rejected password attempts? Reply with the IP address only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=top, scorer="exact", meta={"why": f"rejections per IP: {fails}"})
    if kind == "count":
        q = f"Here is an authentication log:\n\n{log}\n\nHow many rejected password attempts came from {top}? Reply with the number only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=fails[top], scorer="numeric", meta={"why": f"rejections per IP: {fails}"})
    if kind == "users":
        users = {u for _, _, u, ip in parsed if ip == top}
        assert users == truth["targeted"]
        q = f"Here is an authentication log:\n\n{log}\n\nHow many distinct account names did {top} try? Reply with the number only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=len(users), scorer="numeric", meta={"why": f"accounts tried: {sorted(users)}"})
    accepted = [(t, u) for t, ok, u, ip in parsed if ok and ip == top]
    if not accepted:
        raise K.Redraw("no compromise in this log")
    if kind == "victim":
        q = (f"Here is an authentication log:\n\n{log}\n\nAfter a run of rejected attempts, one source succeeded. Which account should be treated as "
             "compromised? Reply with the account name only.")
        assert accepted[0][1] == truth["victim"]
        return S.add(category=cat, difficulty=diff, prompt=q, answer=accepted[0][1], scorer="exact", meta={"why": f"{top} got ACCEPT for {accepted[0][1]}"})
    when = accepted[0][0][11:19]
    q = (f"Here is an authentication log:\n\n{log}\n\nAt what time (UTC) did the brute-forcing source first log in successfully? "
         "Reply with the time as HH:MM:SS.")
    return S.add(category=cat, difficulty=diff, prompt=q, answer=when, scorer="exact", meta={"why": f"first ACCEPT from {top}"})


PATHS = ["/", "/index.html", "/login", "/products", "/products/42", "/cart", "/static/app.js", "/static/site.css", "/api/items", "/about", "/contact"]
PROBES = ["/../../etc/passwd", "/static/..%2f..%2fetc%2fpasswd", "/.env", "/wp-login.php", "/admin/config.bak", "/.git/config", "/server-status"]


def lf_web(S, rng, diff, cat):
    n = {"easy": 12, "medium": 20, "hard": 30}[diff]
    scanner = rand_ip(rng)
    t = dt.datetime(2025, rng.randrange(1, 13), rng.randrange(1, 28), rng.randrange(0, 23), rng.randrange(60), 0)
    rows = []
    for _ in range(n):
        t += dt.timedelta(seconds=rng.randrange(1, 40))
        ip = rand_ip(rng, private=rng.random() < 0.3)
        path = rng.choice(PATHS)
        status = 200 if rng.random() < 0.85 else rng.choice([301, 404])
        rows.append((t, ip, "GET", path, status))
    k = rng.randrange(3, 7)
    probes = rng.sample(PROBES, k)
    for pth in probes:
        t += dt.timedelta(seconds=rng.randrange(1, 4))
        rows.append((t, scanner, "GET", pth, rng.choice([400, 403, 404])))
    rows.sort()
    lines = [f"{ip} - - [{when:%d/%b/%Y:%H:%M:%S} +0000] \"{m} {p} HTTP/1.1\" {s} {rng.randrange(200, 9000)}" for when, ip, m, p, s in rows]
    log = "\n".join(lines)
    parsed = [re.match(r"^(\S+) - - \[([^\]]+)\] \"(\w+) (\S+) HTTP/1\.1\" (\d{3}) \d+$", ln).groups() for ln in lines]
    sensitive = [p for _, _, _, p, _ in parsed if any(x in p for x in ("..", ".env", ".git", "wp-login", ".bak", "server-status"))]
    probe_ips = {ip for ip, _, _, p, _ in parsed if p in sensitive}
    assert probe_ips == {scanner} and len(sensitive) == k
    kind = rng.choice({"easy": ["who"], "medium": ["who", "count"], "hard": ["count", "errors"]}[diff])
    if kind == "who":
        q = f"Here is a web server access log:\n\n{log}\n\nWhich client IP address is probing for sensitive files? Reply with the IP address only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=scanner, scorer="exact", meta={"why": f"requests for {sensitive}"})
    if kind == "count":
        q = f"Here is a web server access log:\n\n{log}\n\nHow many requests from {scanner} target paths that are not part of the normal site? Reply with the number only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=k, scorer="numeric", meta={"why": f"probes: {sensitive}"})
    errors = sum(1 for _, _, _, _, s in parsed if s.startswith("4"))
    q = f"Here is a web server access log:\n\n{log}\n\nHow many requests in total received a 4xx status code? Reply with the number only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=errors, scorer="numeric", meta={"why": "counted status codes 400-499"})


# --- incident response traps --------------------------------------------------------------------


def ir_timezones(S, rng, diff, cat):
    base = dt.datetime(2025, rng.randrange(1, 13), rng.randrange(1, 28), rng.randrange(0, 24), rng.randrange(60), rng.randrange(60), tzinfo=dt.timezone.utc)
    n = {"easy": 2, "medium": 3, "hard": 4}[diff]
    systems = rng.sample(["firewall", "mail gateway", "domain controller", "file server", "VPN concentrator", "web proxy"], n)
    offsets = rng.sample([-8, -5, -3, 0, 1, 2, 3, 5, 8, 9], n)
    times = sorted(base + dt.timedelta(minutes=rng.randrange(0, 240)) for _ in range(n))
    order = list(range(n))
    rng.shuffle(order)
    events = []
    for idx in order:
        tz = dt.timezone(dt.timedelta(hours=offsets[idx]))
        local = times[idx].astimezone(tz)
        label = "UTC" if offsets[idx] == 0 else f"UTC{'+' if offsets[idx] > 0 else '−'}{abs(offsets[idx])}"
        events.append((systems[idx], local, label))
    lines = " ".join(f"The {s} logged its first alert at {lt:%H:%M} on {lt:%d %b} local time ({lab})." for s, lt, lab in events)
    first = systems[min(range(n), key=lambda i: times[i])]
    if len(set(times)) < n:
        raise K.Redraw("tie")
    # independent: convert the rendered local times back to UTC from the text
    parsed = []
    for s, lt, lab in events:
        off = 0 if lab == "UTC" else int(lab[3:].replace("−", "-"))
        parsed.append((lt.replace(tzinfo=None) - dt.timedelta(hours=off), s))
    assert min(parsed)[1] == first
    if diff == "hard" and rng.random() < 0.5:
        a, b = min(parsed), max(parsed)
        minutes = int((b[0] - a[0]).total_seconds() // 60)
        q = f"{lines} How many minutes passed between the earliest and the latest of these alerts? Reply with the number only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=minutes, scorer="numeric", meta={"why": f"converted to UTC: {[(str(t), s) for t, s in sorted(parsed)]}"})
    q = f"{lines} Which system raised the earliest alert?"
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=f"The {first}", distractors=[f"The {s}" for s in systems if s != first],
                    meta={"why": f"converted to UTC: {[(str(t), s) for t, s in sorted(parsed)]}"})


def ir_ioc(S, rng, diff, cat):
    n = {"easy": 3, "medium": 5, "hard": 7}[diff]
    hosts = rng.sample(["ws-014", "ws-022", "ws-031", "lab-7", "hr-03", "fin-11", "dev-40", "kiosk-2", "mail-1", "ops-9"], n)
    ioc = hashlib.sha256(phrase(rng, 3).encode()).hexdigest()
    hit = rng.randrange(n)
    digests = []
    for i in range(n):
        if i == hit:
            digests.append(ioc)
        else:
            d = list(ioc)
            for _ in range({"easy": 6, "medium": 2, "hard": 1}[diff]):
                j = rng.randrange(64)
                d[j] = rng.choice([c for c in "0123456789abcdef" if c != d[j]])
            digests.append("".join(d))
    assert [h for h, d in zip(hosts, digests) if d == ioc] == [hosts[hit]]
    listing = "\n".join(f"{h}: {d}" for h, d in zip(hosts, digests))
    q = (f"Threat intelligence lists this SHA-256 indicator for a malicious file:\n{ioc}\n\nEndpoint scans report these file hashes:\n{listing}\n\n"
         "Which host has an exact match? Reply with the host name only.")
    return S.add(category=cat, difficulty=diff, prompt=q, answer=hosts[hit], scorer="exact", meta={"why": "string equality; the other digests differ in one or more characters"})


def ir_domains(S, rng, diff, cat):
    brand = rng.choice(["northwind", "contoso", "fabrikam", "tailspin", "adatum", "litware", "wingtip"])
    tld = rng.choice(["com", "net", "org"])
    real = f"{brand}-bank.{tld}" if rng.random() < 0.5 else f"{brand}.{tld}"
    name, t = real.rsplit(".", 1)
    fakes = {
        f"{name}.{t}.secure-login.{rng.choice(['info', 'top', 'xyz'])}",
        f"{name.replace('o', '0', 1)}.{t}" if "o" in name else f"{name}s.{t}",
        f"{name.replace('l', '1', 1)}.{t}" if "l" in name else f"{name}-support.{t}",
        f"{name}.{rng.choice([x for x in ['co', 'cm', 'om', 'net', 'org'] if x != t])}",
        f"{name[:2]}{name[3]}{name[2]}{name[4:]}.{t}",
        f"login-{name}.{t}",
        f"{name.replace('a', 'а', 1)}.{t}" if "a" in name else f"{name}1.{t}",  # Cyrillic a
    }
    fakes.discard(real)
    fakes = sorted(fakes)
    rng.shuffle(fakes)
    q = f"Staff may only enter their password on the exact domain {real}. Which of these links points to that domain?"
    if diff == "hard":
        q += " (Look closely: some characters may be lookalikes from other scripts.)"
    urls = [f"https://{d}/signin" for d in fakes[: {"easy": 3, "medium": 3, "hard": 4}[diff]]]
    correct = f"https://{real}/signin"
    for u in urls:
        host = u.split("/")[2]
        assert host != real and not host.endswith("." + real)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=correct, distractors=urls, meta={"why": "only the exact host matches; the others are subdomains of other sites, typos or lookalikes"},
                    n=5 if diff == "hard" else 4)


def ir_extension(S, rng, diff, cat):
    stem_name = rng.choice(["invoice_2025", "payslip_march", "shipping_label", "meeting_notes", "cv_final", "photo_0412"])
    decoy = rng.choice(["pdf", "docx", "jpg", "xlsx", "txt"])
    real = rng.choice(["exe", "scr", "js", "vbs", "lnk", "bat"])
    pad = " " * rng.randrange(0, 12) if diff == "hard" else ""
    name = f"{stem_name}.{decoy}{pad}.{real}"
    if diff == "medium":
        name = f"{stem_name}.{decoy}.{real}"
    ext = name.rsplit(".", 1)[1]
    assert ext == real
    q = (f"A user received an attachment named \"{name}\" and says it is just a {decoy.upper()} document because that is what the icon and name suggest. "
         "Which extension actually decides how Windows opens the file?")
    if rng.random() < 0.5:
        return S.add(category=cat, difficulty=diff, prompt=f"{q} Reply with the extension only, without the dot.", answer=real, scorer="exact", meta={"why": "the last extension counts"})
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=f".{real}", distractors=[f".{decoy}", f".{decoy}.{real}", ".zip"], meta={"why": "the last extension counts"})


VOLATILITY = [  # RFC 3227 section 2.1, most volatile first
    "CPU registers and cache",
    "the routing table, ARP cache, process table and kernel statistics",
    "main memory (RAM)",
    "temporary file systems",
    "disk",
    "remote logging and monitoring data",
    "physical configuration and network topology",
    "archival media such as backup tapes",
]


def ir_volatility(S, rng, diff, cat):
    k = {"easy": 3, "medium": 4, "hard": 5}[diff]
    idx = sorted(rng.sample(range(len(VOLATILITY)), k))
    if diff == "easy" and 2 not in idx:
        idx = sorted(rng.sample([i for i in range(len(VOLATILITY)) if i != 2], k - 1) + [2])
    items = [VOLATILITY[i] for i in idx]
    shuffled = list(items)
    rng.shuffle(shuffled)
    ask_last = diff == "hard" and rng.random() < 0.5
    want = items[-1] if ask_last else items[0]
    q = (f"Following the order of volatility in RFC 3227 (Guidelines for Evidence Collection and Archiving), which of these should be collected "
         f"{'last' if ask_last else 'first'}: {'; '.join(shuffled)}?")
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=want[0].upper() + want[1:], distractors=[x[0].upper() + x[1:] for x in shuffled if x != want],
                    meta={"why": "RFC 3227 §2.1 lists evidence from most to least volatile", "order": items})


def ir_threshold(S, rng, diff, cat):
    limit = rng.randrange(3, 7)
    window = rng.choice([30, 45, 60, 90, 120])
    acct = rng.choice(["alice", "bob", "carol", "dmitri", "erin", "farid", "gwen", "hiro", "svc-backup", "admin"])
    n = {"easy": 8, "medium": 12, "hard": 18}[diff]
    t0 = dt.datetime(2025, 5, rng.randrange(1, 28), rng.randrange(0, 23), rng.randrange(0, 59), 0)
    secs = sorted(rng.sample(range(0, 600), n))
    stamps = [t0 + dt.timedelta(seconds=s) for s in secs]
    # fires at each failure that makes the count in the trailing 60 s window exceed the limit
    fires = [i for i in range(n) if sum(1 for j in range(i + 1) if secs[i] - secs[j] < window) > limit]
    # independent: sliding window with two pointers
    left, alt = 0, []
    for i in range(n):
        while secs[i] - secs[left] >= window:
            left += 1
        if i - left + 1 > limit:
            alt.append(i)
    assert fires == alt
    listing = ", ".join(f"{s:%H:%M:%S}" for s in stamps)
    q = (f"Failed logins for the account {acct} occurred at: {listing}. A detection rule alerts on every failed login that brings the count of "
         f"failures in the preceding {window} seconds (including itself; one exactly {window} s earlier no longer counts) above {limit}. "
         f"How many alerts does it raise for {acct}? Reply with the number only.")
    return S.add(category=cat, difficulty=diff, prompt=q, answer=len(fires), scorer="numeric", meta={"why": f"alerts at {[stamps[i].strftime('%H:%M:%S') for i in fires]}"})


def ir_memory(S, rng, diff, cat):
    host = rng.choice(["ws-118", "fin-lap-07", "build-3", "hr-desk-12", "sales-22"])
    sign = rng.choice(["an unknown process beaconing to an external address every 60 seconds", "a process injecting code into the browser",
                       "a script running only in memory with no file on disk", "a suspicious service that appeared an hour ago"])
    correct = "Isolate it from the network but keep it powered on until memory has been captured"
    wrong = ["Power it off immediately to stop the malware", "Reimage it right away so the user can get back to work",
             "Delete the suspicious files and reboot to finish the cleanup", "Run a full disk defragmentation to speed up the later scan"]
    q = (f"Host {host} shows {sign}. The team wants to keep the contents of RAM available for forensic analysis while stopping further network activity. "
         "Which first action fits that goal?")
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=correct, distractors=wrong[: {"easy": 2, "medium": 3, "hard": 4}[diff]],
                    meta={"why": "powering off or rebooting destroys volatile memory (RFC 3227); isolation stops network activity without losing it"}, n={"easy": 3, "medium": 4, "hard": 5}[diff])


CATEGORIES = {
    "toy_crypto": [tc_caesar, tc_encodings, tc_xor, tc_hash],
    "cidr": [ci_size, ci_bounds, ci_member, ci_subnets],
    "vuln_classification": [vu_classify, vu_classify, vu_fix],
    "log_forensics": [lf_auth, lf_web],
    "incident_response": [ir_timezones, ir_ioc, ir_domains, ir_extension, ir_volatility, ir_threshold, ir_memory],
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "sec2")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Defensive security (second wave): toy cryptography and encodings, CIDR and subnet arithmetic, "
            "vulnerability classification of generated code snippets (CWE classes or none), log forensics "
            "over generated authentication and web logs, and incident-response traps (time zones, "
            "near-miss indicators, lookalike domains, double extensions, order of volatility, alert "
            "thresholds); easy/medium/hard, mixing exact, numeric and mc. Answers are computed with "
            "hashlib, base64 and ipaddress, or parsed back out of the generated logs"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="exact",
        date=K.SECOND_WAVE_DATE,
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
