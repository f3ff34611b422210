# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate prompts-mix-v1: throughput prompts, topics x all six buckets x five languages.

Every prompt is a task line followed by field notes built sentence by sentence from
vocabulary written here (opener + subject + predicate + circumstance with a number).
Every sentence in the dataset is distinct, so no passage repeats across rows and prefix
caching or tokenizer merges cannot flatter a prefill number. Rows for xs, s and m cover
every topic x language; l covers every topic in two languages; xl and xxl cover every
topic once and every language once.

The generator proves what it writes: approx_tokens = ceil(chars/4) recomputed from the
messages, the bucket derived from it and checked against the plan, and the unique-text
rule asserted over all rows.

    python datasets/_gen/gen_prompts_mix_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "prompts-mix-v1"
SEED = 4_200_001
TOPICS = ("science", "cooking", "travel", "gardening", "crafts")
LANGS = ("en", "de", "fr", "es", "zh")

# Target approx_tokens per bucket: ranges with room for one more sentence below the
# bucket's upper bound.
TARGETS = {
    "xs": (40, 90),
    "s": (180, 460),
    "m": (600, 1950),
    "l": (2200, 7900),
    "xl": (8500, 16000),
    "xxl": (33000, 36000),
}

LANG_VOCAB: dict[str, dict] = {
    "en": {
        "join": " ",
        "order": ("opener", "subject", "predicate", "circumstance"),
        "end": ".",
        "topics": {"science": "science", "cooking": "cooking", "travel": "travel", "gardening": "gardening", "crafts": "crafts"},
        "tasks": (
            "Summarise the following notes about {topic} in five bullet points.",
            "Read these notes about {topic} and list the three observations that seem most important, with one sentence of reasoning each.",
            "Rewrite the following notes about {topic} as a short, well-organised report with headings.",
            "Explain what these notes about {topic} say in plain language for a beginner, in at most two paragraphs.",
        ),
        "openers": ("", "", "In practice, ", "By contrast, ", "As noted before, ", "Interestingly, ", "Once again, ", "According to the log, "),
        "predicates": (
            "changes noticeably", "needs more attention than expected", "behaves differently from the description",
            "turns out to be the deciding factor", "improves slightly", "stays remarkably stable", "causes a small delay",
            "surprises everyone involved", "resembles the previous attempt", "is noted in the logbook as well",
            "deserves a second look", "matters more than anyone assumed",
        ),
        "circumstances": (
            "after {n} minutes", "on day {n} of the trial", "in roughly {n} percent of the attempts",
            "at a temperature of {n} degrees", "at a distance of {n} metres", "within {n} hours",
            "during week {n}", "according to {n} of the participants",
        ),
        "subjects": {
            "science": ("the sample in the second flask", "the pendulum", "the prism on the bench", "the seedling under the lamp", "the magnet", "the thermometer reading", "the salt solution", "the spring balance", "the copper wire", "the water column"),
            "cooking": ("the bread dough", "the onion soup", "the pastry crust", "the rice", "the tomato sauce", "the spice mix", "the roasted squash", "the lentil stew", "the custard", "the pickled cabbage"),
            "travel": ("the night train", "the ferry crossing", "the mountain road", "the hostel kitchen", "the walking route", "the border station", "the coastal bus", "the old town map", "the luggage trolley", "the harbour timetable"),
            "gardening": ("the tomato bed", "the compost heap", "the pear tree", "the rain barrel", "the herb border", "the bean trellis", "the greenhouse door", "the strawberry patch", "the lawn edge", "the potato row"),
            "crafts": ("the glaze on the vase", "the loom", "the dovetail joint", "the knitting pattern", "the leather strap", "the watercolour wash", "the soldering iron", "the clay bowl", "the basket weave", "the linocut print"),
        },
    },
    "de": {
        "join": " ",
        "order": ("opener", "subject", "predicate", "circumstance"),
        "end": ".",
        "topics": {"science": "Naturwissenschaft", "cooking": "Kochen", "travel": "Reisen", "gardening": "Gartenarbeit", "crafts": "Handwerk"},
        "tasks": (
            "Fasse die folgenden Notizen zum Thema {topic} in fünf Stichpunkten zusammen.",
            "Lies diese Notizen zum Thema {topic} und nenne die drei wichtigsten Beobachtungen, jeweils mit einem Satz Begründung.",
            "Schreibe die folgenden Notizen zum Thema {topic} in einen kurzen, gut gegliederten Bericht mit Zwischenüberschriften um.",
            "Erkläre den Inhalt dieser Notizen zum Thema {topic} in einfacher Sprache für Anfänger, in höchstens zwei Absätzen.",
        ),
        "openers": ("", "", "Aber ", "Und ", "Doch ", "Denn ", "Auch ", "Sogar "),
        "predicates": (
            "verändert sich deutlich", "braucht mehr Aufmerksamkeit als erwartet", "verhält sich anders als beschrieben",
            "gibt den Ausschlag", "gelingt etwas besser", "bleibt erstaunlich stabil", "sorgt für eine kleine Verzögerung",
            "überrascht alle Beteiligten", "ähnelt dem vorigen Versuch", "steht so auch im Notizbuch",
            "verdient einen zweiten Blick", "zählt mehr als gedacht",
        ),
        "circumstances": (
            "nach {n} Minuten", "am {n}. Tag des Versuchs", "in etwa {n} Prozent der Fälle",
            "bei einer Temperatur von {n} Grad", "in einem Abstand von {n} Metern", "innerhalb von {n} Stunden",
            "in der {n}. Woche", "nach Angaben von {n} Teilnehmenden",
        ),
        "subjects": {
            "science": ("die Probe im zweiten Kolben", "das Pendel", "das Prisma auf dem Tisch", "der Keimling unter der Lampe", "der Magnet", "die Anzeige des Thermometers", "die Salzlösung", "die Federwaage", "der Kupferdraht", "die Wassersäule"),
            "cooking": ("der Brotteig", "die Zwiebelsuppe", "der Mürbeteig", "der Reis", "die Tomatensoße", "die Gewürzmischung", "der geröstete Kürbis", "der Linseneintopf", "die Vanillecreme", "das eingelegte Kraut"),
            "travel": ("der Nachtzug", "die Fährüberfahrt", "die Bergstraße", "die Küche der Herberge", "die Wanderroute", "der Grenzbahnhof", "der Küstenbus", "der Altstadtplan", "der Gepäckwagen", "der Hafenfahrplan"),
            "gardening": ("das Tomatenbeet", "der Komposthaufen", "der Birnbaum", "die Regentonne", "die Kräuterrabatte", "das Bohnenspalier", "die Gewächshaustür", "das Erdbeerbeet", "die Rasenkante", "die Kartoffelreihe"),
            "crafts": ("die Glasur der Vase", "der Webstuhl", "die Schwalbenschwanzverbindung", "das Strickmuster", "der Lederriemen", "die Aquarelllasur", "der Lötkolben", "die Tonschale", "das Korbgeflecht", "der Linoldruck"),
        },
    },
    "fr": {
        "join": " ",
        "order": ("opener", "subject", "predicate", "circumstance"),
        "end": ".",
        "topics": {"science": "les sciences", "cooking": "la cuisine", "travel": "les voyages", "gardening": "le jardinage", "crafts": "l'artisanat"},
        "tasks": (
            "Résume en cinq puces les notes suivantes sur {topic}.",
            "Lis ces notes sur {topic} et indique les trois observations les plus importantes, chacune avec une phrase de justification.",
            "Réécris les notes suivantes sur {topic} sous forme d'un court rapport bien structuré, avec des intertitres.",
            "Explique le contenu de ces notes sur {topic} en langage simple pour un débutant, en deux paragraphes au plus.",
        ),
        "openers": ("", "", "En pratique, ", "En revanche, ", "Comme prévu, ", "Curieusement, ", "Une fois de plus, ", "D'après le carnet, "),
        "predicates": (
            "change nettement", "demande plus d'attention que prévu", "se comporte autrement que décrit",
            "joue un rôle décisif", "s'améliore légèrement", "reste étonnamment stable", "provoque un petit retard",
            "surprend tout le monde", "ressemble à l'essai précédent", "figure aussi dans le carnet",
            "mérite un second regard", "compte plus qu'on ne le pensait",
        ),
        "circumstances": (
            "après {n} minutes", "le {n}e jour de l'essai", "dans environ {n} % des cas",
            "à une température de {n} degrés", "à une distance de {n} mètres", "en moins de {n} heures",
            "pendant la semaine {n}", "selon {n} participants",
        ),
        "subjects": {
            "science": ("l'échantillon du deuxième flacon", "le pendule", "le prisme sur la paillasse", "la jeune pousse sous la lampe", "l'aimant", "la lecture du thermomètre", "la solution saline", "le dynamomètre", "le fil de cuivre", "la colonne d'eau"),
            "cooking": ("la pâte à pain", "la soupe à l'oignon", "la pâte brisée", "le riz", "la sauce tomate", "le mélange d'épices", "la courge rôtie", "le ragoût de lentilles", "la crème anglaise", "le chou fermenté"),
            "travel": ("le train de nuit", "la traversée en ferry", "la route de montagne", "la cuisine de l'auberge", "l'itinéraire de randonnée", "la gare frontalière", "le bus côtier", "le plan de la vieille ville", "le chariot à bagages", "l'horaire du port"),
            "gardening": ("le carré de tomates", "le tas de compost", "le poirier", "le récupérateur d'eau", "la bordure d'herbes", "le treillis à haricots", "la porte de la serre", "le carré de fraises", "la bordure de pelouse", "le rang de pommes de terre"),
            "crafts": ("l'émail du vase", "le métier à tisser", "l'assemblage en queue d'aronde", "le modèle de tricot", "la sangle en cuir", "le lavis d'aquarelle", "le fer à souder", "le bol en argile", "le tressage du panier", "la linogravure"),
        },
    },
    "es": {
        "join": " ",
        "order": ("opener", "subject", "predicate", "circumstance"),
        "end": ".",
        "topics": {"science": "ciencia", "cooking": "cocina", "travel": "viajes", "gardening": "jardinería", "crafts": "artesanía"},
        "tasks": (
            "Resume en cinco viñetas las siguientes notas sobre {topic}.",
            "Lee estas notas sobre {topic} e indica las tres observaciones más importantes, cada una con una frase de justificación.",
            "Reescribe las siguientes notas sobre {topic} como un informe breve y bien organizado, con subtítulos.",
            "Explica el contenido de estas notas sobre {topic} en lenguaje sencillo para principiantes, en dos párrafos como máximo.",
        ),
        "openers": ("", "", "En la práctica, ", "En cambio, ", "Como se esperaba, ", "Curiosamente, ", "Una vez más, ", "Según el cuaderno, "),
        "predicates": (
            "cambia de forma visible", "requiere más atención de lo previsto", "se comporta de otra manera que la descrita",
            "juega un papel decisivo", "mejora un poco", "se mantiene sorprendentemente estable", "provoca un pequeño retraso",
            "sorprende a todo el mundo", "se parece al intento anterior", "aparece también en el cuaderno",
            "merece una segunda mirada", "importa más de lo que se pensaba",
        ),
        "circumstances": (
            "después de {n} minutos", "el día {n} de la prueba", "en aproximadamente el {n} % de los casos",
            "a una temperatura de {n} grados", "a una distancia de {n} metros", "en menos de {n} horas",
            "durante la semana {n}", "según {n} participantes",
        ),
        "subjects": {
            "science": ("la muestra del segundo matraz", "el péndulo", "el prisma de la mesa", "el brote bajo la lámpara", "el imán", "la lectura del termómetro", "la solución salina", "el dinamómetro", "el hilo de cobre", "la columna de agua"),
            "cooking": ("la masa de pan", "la sopa de cebolla", "la masa quebrada", "el arroz", "la salsa de tomate", "la mezcla de especias", "la calabaza asada", "el guiso de lentejas", "el flan", "la col fermentada"),
            "travel": ("el tren nocturno", "la travesía en ferry", "la carretera de montaña", "la cocina del albergue", "la ruta de senderismo", "la estación fronteriza", "el autobús de la costa", "el plano del casco antiguo", "el carrito de equipaje", "el horario del puerto"),
            "gardening": ("el bancal de tomates", "el montón de compost", "el peral", "el depósito de lluvia", "el borde de hierbas", "la espaldera de judías", "la puerta del invernadero", "el bancal de fresas", "el borde del césped", "la hilera de patatas"),
            "crafts": ("el esmalte del jarrón", "el telar", "la unión en cola de milano", "el patrón de punto", "la correa de cuero", "la aguada de acuarela", "el soldador", "el cuenco de barro", "el trenzado de la cesta", "el grabado en linóleo"),
        },
    },
    "zh": {
        "join": "",
        "order": ("opener", "subject", "circumstance", "predicate"),
        "end": "。",
        "topics": {"science": "科学", "cooking": "烹饪", "travel": "旅行", "gardening": "园艺", "crafts": "手工艺"},
        "tasks": (
            "请用五个要点总结以下关于{topic}的笔记。",
            "阅读这些关于{topic}的笔记，指出最重要的三条观察，并各用一句话说明理由。",
            "请把以下关于{topic}的笔记改写成一份结构清晰、带小标题的简短报告。",
            "请用通俗易懂的语言，为初学者解释这些关于{topic}的笔记的内容，最多两段。",
        ),
        "openers": ("", "", "实际上，", "相比之下，", "正如预料，", "有趣的是，", "再一次，", "根据记录，"),
        "predicates": (
            "明显发生了变化", "比预期需要更多关注", "表现得与描述不同", "起了决定性作用", "略有改善", "保持得出奇稳定",
            "造成了一点延误", "让所有人都感到意外", "与上一次尝试相似", "也记录在笔记本里", "值得再看一眼", "比想象中更重要",
        ),
        "circumstances": (
            "在{n}分钟后", "在试验的第{n}天", "在大约百分之{n}的情况下", "在{n}度的温度下",
            "在{n}米的距离上", "在{n}小时之内", "在第{n}周", "据{n}位参与者说",
        ),
        "subjects": {
            "science": ("第二个烧瓶里的样品", "摆锤", "实验台上的棱镜", "灯下的幼苗", "磁铁", "温度计的读数", "盐溶液", "弹簧秤", "铜线", "水柱"),
            "cooking": ("面包面团", "洋葱汤", "酥皮", "米饭", "番茄酱汁", "香料混合物", "烤南瓜", "扁豆炖菜", "蛋奶冻", "腌白菜"),
            "travel": ("夜班火车", "渡轮航程", "山路", "旅舍的厨房", "徒步路线", "边境车站", "沿海巴士", "老城地图", "行李推车", "港口时刻表"),
            "gardening": ("番茄苗床", "堆肥堆", "梨树", "雨水桶", "香草花境", "豆架", "温室的门", "草莓地", "草坪边缘", "土豆垄"),
            "crafts": ("花瓶上的釉", "织布机", "燕尾榫", "编织图样", "皮带", "水彩晕染", "电烙铁", "陶碗", "篮子的编法", "麻胶版画"),
        },
    },
}


class SentenceSource:
    """Distinct sentences for one (topic, language); never the same sentence twice in the dataset."""

    def __init__(self, rng: random.Random, lang: str, topic: str, used: set[str]):
        self.rng, self.vocab, self.topic, self.used = rng, LANG_VOCAB[lang], topic, used

    def next(self) -> str:
        v, rng = self.vocab, self.rng
        for _ in range(1000):
            parts = {
                "opener": rng.choice(v["openers"]),
                "subject": rng.choice(v["subjects"][self.topic]),
                "predicate": rng.choice(v["predicates"]),
                "circumstance": rng.choice(v["circumstances"]).format(n=rng.randint(2, 97)),
            }
            words = [parts["opener"] + parts["subject"]] + [parts[k] for k in v["order"][2:]]
            sentence = v["join"].join(words) + v["end"]
            sentence = sentence[0].upper() + sentence[1:]
            if sentence not in self.used:
                self.used.add(sentence)
                return sentence
        raise RuntimeError(f"vocabulary for {self.topic}/{self.vocab['topics'][self.topic]} exhausted")


def make_prompt(rng: random.Random, lang: str, topic: str, target: int, used: set[str]) -> str:
    v = LANG_VOCAB[lang]
    task = rng.choice(v["tasks"]).format(topic=v["topics"][topic])
    source = SentenceSource(rng, lang, topic, used)
    paragraphs: list[str] = []
    current: list[str] = []
    per_paragraph = rng.randint(3, 7)
    chars = len(task) + 2
    while _lib.approx_tokens_of_chars(chars) < target:
        sentence = source.next()
        chars += len(sentence) + (len(v["join"]) if current else (2 if paragraphs else 0))
        current.append(sentence)
        if len(current) >= per_paragraph:
            paragraphs.append(v["join"].join(current))
            current, per_paragraph = [], rng.randint(3, 7)
    if current:
        paragraphs.append(v["join"].join(current))
    return task + "\n\n" + "\n\n".join(paragraphs)


def plan() -> list[tuple[str, str, str]]:
    """(bucket, topic, lang) for every row."""
    rows = []
    for bucket_name in ("xs", "s", "m"):
        rows += [(bucket_name, t, l) for t in TOPICS for l in LANGS]
    rows += [("l", t, LANGS[(i + k) % len(LANGS)]) for i, t in enumerate(TOPICS) for k in (0, 2)]
    rows += [("xl", t, LANGS[(i + 1) % len(LANGS)]) for i, t in enumerate(TOPICS)]
    rows += [("xxl", t, LANGS[(i + 3) % len(LANGS)]) for i, t in enumerate(TOPICS)]
    return rows


def make_rows() -> list[dict]:
    rng = random.Random(SEED)
    used: set[str] = set()
    rows = []
    for number, (bucket_name, topic, lang) in enumerate(plan(), start=1):
        low, high = TARGETS[bucket_name]
        content = make_prompt(rng, lang, topic, rng.randint(low, high), used)
        messages = [{"role": "user", "content": content}]
        tokens = _lib.message_tokens(messages)
        assert _lib.bucket(tokens) == bucket_name, (number, bucket_name, tokens)
        rows.append(
            {
                "id": f"mix-{number:04d}",
                "topic": topic,
                "bucket": bucket_name,
                "lang": lang,
                "approx_tokens": tokens,
                "messages": messages,
                "shared_prefix": None,
            }
        )
    _lib.assert_unique_text((row["id"], row["messages"][0]["content"]) for row in rows)
    assert {r["bucket"] for r in rows} == set(_lib.BUCKET_NAMES)
    for name in _lib.BUCKET_NAMES:
        assert {r["lang"] for r in rows if r["bucket"] == name} == set(LANGS), name
        assert {r["topic"] for r in rows if r["bucket"] == name} == set(TOPICS), name
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    card = _lib.base_dataset_json(
        dataset_id=DATASET_ID,
        kind="prompts",
        description=(
            "Mixed throughput prompts: five topics x all six length buckets x five languages "
            "(en, de, fr, es, zh). Each prompt is a task over synthetic field notes; every "
            "sentence in the dataset is distinct, so no passage repeats across rows."
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        extra={"topics": list(TOPICS), "langs": list(LANGS), "buckets": {n: [lo, hi] for n, lo, hi in _lib.BUCKETS}},
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
