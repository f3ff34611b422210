"""Write a synthetic FLORES-style directory: eng_Latn plus N target languages (real FLORES+
codes, one Glottocode-qualified), S aligned sentences each, deterministic text. No FLORES
data is shipped: this stands in for it in demos and timings of `import-flores --target all`.

    python bench/flores_fixture.py --dir /tmp/flores --targets 39 --sentences 1012
    atlas translation import-flores --dir /tmp/flores --target all --out /tmp/flores-multi.json

Layout DIR/SPLIT/CODE.SPLIT (the FLORES-200 release's); line k of every file is "sentence
k" in made-up words of the language's script, so the same arguments write the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

SOURCE = "eng_Latn"
# FLORES+ devtest codes (apc_Arab_nort3139: a FLORES+ 2 Glottocode-qualified code)
CODES = (
    "arb_Arab", "ces_Latn", "deu_Latn", "fra_Latn", "jpn_Jpan", "rus_Cyrl", "zho_Hans", "zho_Hant", "spa_Latn", "por_Latn",
    "ita_Latn", "nld_Latn", "pol_Latn", "tur_Latn", "ukr_Cyrl", "hin_Deva", "ben_Beng", "kor_Hang", "vie_Latn", "tha_Thai",
    "heb_Hebr", "ell_Grek", "swe_Latn", "fin_Latn", "hun_Latn", "ron_Latn", "dan_Latn", "bul_Cyrl", "ind_Latn", "zsm_Latn",
    "swh_Latn", "pes_Arab", "urd_Arab", "tam_Taml", "tel_Telu", "mar_Deva", "yor_Latn", "amh_Ethi", "apc_Arab_nort3139",
    "cat_Latn", "est_Latn", "lvs_Latn", "lit_Latn", "slk_Latn", "slv_Latn", "hrv_Latn", "srp_Cyrl", "kat_Geor", "hye_Armn",
)  # fmt: skip
# letters to make words from, by ISO 15924 script (Latin for the rest)
LETTERS = {
    "Latn": "abcdefghijklmnoprstuvyzáéíóúäöüçñ", "Arab": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي", "Cyrl": "абвгдежзийклмнопрстуфхцчшщыэюя",
    "Jpan": "あいうえおかきくけこさしすせそたちつてとなにぬねの日本語", "Hans": "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年",
    "Hant": "的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年", "Deva": "अआइईउऊएऐओऔकखगघचछजझटठडढणतथदधनपफबभमयरलवशसह",
    "Beng": "অআইঈউঊএঐওঔকখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশসহ", "Hang": "가나다라마바사아자차카타파하거너더러머버서어저처", "Thai": "กขคงจฉชซญดตถทธนบปผพฟภมยรลวศสหอ",
    "Hebr": "אבגדהוזחטיכלמנסעפצקרשת", "Grek": "αβγδεζηθικλμνξοπρστυφχψω", "Taml": "அஆஇஈஉஊஎஏஐஒஓகஙசஞடணதநபமயரலவழளறன",
    "Telu": "అఆఇఈఉఊఎఏఐఒఓకఖగఘచఛజఝటఠడఢణతథదధనపఫబభమయరలవశషసహ", "Ethi": "ሀለሐመሠረሰሸቀበተቸኀነኘአከኸወዐዘዠየደጀገጠጨጰጸፀፈፐ",
    "Geor": "აბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰ", "Armn": "աբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆ",
}  # fmt: skip
UNSPACED = {"Jpan", "Hans", "Hant", "Thai"}  # scripts written without spaces between words


def sentence(code: str, k: int) -> str:
    """Line k of CODE's file: 6-14 made-up words from a hash of (code, k), then the number."""
    script = code.split("_")[1]
    letters = LETTERS.get(script, LETTERS["Latn"])
    digest = hashlib.sha256(f"{code}/{k}".encode()).digest()
    words = ["".join(letters[b % len(letters)] for b in digest[i : i + 2 + digest[i] % 5]) for i in range(0, 6 + digest[0] % 9)]
    return ("" if script in UNSPACED else " ").join(words) + f" {k}."


def write_fixture(directory: Path, targets: int, sentences: int, split: str = "devtest") -> list[Path]:
    folder = directory / split
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code in (SOURCE, *CODES[:targets]):
        path = folder / f"{code}.{split}"
        path.write_text("".join(sentence(code, k) + "\n" for k in range(1, sentences + 1)), encoding="utf-8")
        written.append(path)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, required=True, help="directory to write (DIR/SPLIT/CODE.SPLIT)")
    parser.add_argument("--targets", type=int, default=39, help=f"target languages besides {SOURCE} (default 39, at most {len(CODES)})")
    parser.add_argument("--sentences", type=int, default=1012, help="sentences per file (default 1012, FLORES+ devtest's)")
    parser.add_argument("--split", default="devtest", choices=["dev", "devtest"])
    args = parser.parse_args()
    if not 1 <= args.targets <= len(CODES):
        parser.error(f"--targets: 1 to {len(CODES)}")
    if args.sentences < 1:
        parser.error("--sentences: at least 1")
    paths = write_fixture(args.dir, args.targets, args.sentences, args.split)
    print(f"wrote {len(paths)} files ({SOURCE} + {len(paths) - 1} targets) x {args.sentences} sentences under {args.dir / args.split}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
