# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-multilingual-v1: the same four kinds of items in ten languages.

Languages (six scripts): English, German, French, Spanish (Latin), Russian (Cyrillic),
Chinese (Han), Japanese (kana and kanji), Korean (Hangul), Arabic (Arabic script, right
to left) and Hindi (Devanagari). Every language gets the same items, written here in that
language (never machine output), with the number and case agreement each language needs
(Russian numeral agreement, Arabic counted nouns, Korean topic particles):

* arithmetic  (numeric)  a word problem: easy a+b, medium a+b-c, hard a+b*k-c
* weekday     (contains) "today is X, which weekday is it in n days?"; n mod 7 computed,
                         `answer` lists the accepted spellings of the day in that language
* compare     (mc)       largest integer / smallest decimal (locale decimal separator) /
                         heaviest mass with kg and g mixed
* scoreboard  (contains) quiz results: who scored most / second most / exactly d fewer
                         than a named person

7 rows per kind and language (2 easy, 3 medium, 2 hard): 280 rows. Each answer is computed
from the numbers the generator drew; scoreboard values are distinct, so each question has
one answer, and no name of a language is a substring of another.

    python datasets/_gen/gen_eval_multilingual_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "eval-multilingual-v1"
SEED = 5_400_101
LANGS = ("en", "de", "fr", "es", "ru", "zh", "ja", "ko", "ar", "hi")
SCRIPTS = {"en": "Latin", "de": "Latin", "fr": "Latin", "es": "Latin", "ru": "Cyrillic", "zh": "Han", "ja": "Kana/Kanji", "ko": "Hangul", "ar": "Arabic", "hi": "Devanagari"}
DIFFICULTY_PLAN = ("easy", "easy", "medium", "medium", "medium", "hard", "hard")
DECIMAL_COMMA = {"de", "fr", "es", "ru"}
LABELS = "ABCD"

# (name, gender) -- gender drives Russian and Arabic verb forms; Russian names carry the genitive.
NAMES: dict[str, list[tuple[str, ...]]] = {
    "en": [("Lena",), ("Paul",), ("Maya",), ("Oscar",), ("Ruth",), ("Felix",), ("Nadia",), ("Simon",)],
    "de": [("Jonas",), ("Greta",), ("Lukas",), ("Frieda",), ("Moritz",), ("Hanna",), ("Emil",), ("Clara",)],
    "fr": [("Camille",), ("Hugo",), ("Chloé",), ("Louis",), ("Manon",), ("Jules",), ("Inès",), ("Théo",)],
    "es": [("Lucía",), ("Mateo",), ("Carmen",), ("Diego",), ("Elena",), ("Pablo",), ("Sofía",), ("Javier",)],
    "ru": [("Анна", "f", "Анны"), ("Борис", "m", "Бориса"), ("Ольга", "f", "Ольги"), ("Иван", "m", "Ивана"), ("Мария", "f", "Марии"), ("Павел", "m", "Павла"), ("Елена", "f", "Елены"), ("Дмитрий", "m", "Дмитрия")],
    "zh": [("王芳",), ("李强",), ("张伟",), ("刘洋",), ("陈静",), ("杨帆",), ("赵敏",), ("黄磊",)],
    "ja": [("花子",), ("太郎",), ("健太",), ("美咲",), ("翔太",), ("陽菜",), ("大輔",), ("結衣",)],
    "ko": [("민준",), ("서연",), ("지훈",), ("하은",), ("도윤",), ("수아",), ("예준",), ("지민",)],
    "ar": [("أحمد", "m"), ("ليلى", "f"), ("عمر", "m"), ("مريم", "f"), ("يوسف", "m"), ("سارة", "f"), ("خالد", "m"), ("نور", "f")],
    "hi": [("अनीता",), ("राहुल",), ("प्रिया",), ("अमित",), ("सुनीता",), ("विकास",), ("नेहा",), ("रोहन",)],
}

# Weekday names, Monday first; each entry lists the accepted spellings (first = canonical).
WEEKDAYS: dict[str, list[list[str]]] = {
    "en": [["Monday"], ["Tuesday"], ["Wednesday"], ["Thursday"], ["Friday"], ["Saturday"], ["Sunday"]],
    "de": [["Montag"], ["Dienstag"], ["Mittwoch"], ["Donnerstag"], ["Freitag"], ["Samstag", "Sonnabend"], ["Sonntag"]],
    "fr": [["lundi"], ["mardi"], ["mercredi"], ["jeudi"], ["vendredi"], ["samedi"], ["dimanche"]],
    "es": [["lunes"], ["martes"], ["miércoles", "miercoles"], ["jueves"], ["viernes"], ["sábado", "sabado"], ["domingo"]],
    "ru": [["понедельник"], ["вторник"], ["среда", "среду"], ["четверг"], ["пятница", "пятницу"], ["суббота", "субботу"], ["воскресенье"]],
    "zh": [["星期一", "周一", "礼拜一"], ["星期二", "周二", "礼拜二"], ["星期三", "周三", "礼拜三"], ["星期四", "周四", "礼拜四"], ["星期五", "周五", "礼拜五"], ["星期六", "周六", "礼拜六"], ["星期日", "星期天", "周日", "礼拜日", "礼拜天"]],
    "ja": [["月曜日", "月曜"], ["火曜日", "火曜"], ["水曜日", "水曜"], ["木曜日", "木曜"], ["金曜日", "金曜"], ["土曜日", "土曜"], ["日曜日", "日曜"]],
    "ko": [["월요일"], ["화요일"], ["수요일"], ["목요일"], ["금요일"], ["토요일"], ["일요일"]],
    "ar": [["الاثنين", "الإثنين"], ["الثلاثاء"], ["الأربعاء"], ["الخميس"], ["الجمعة"], ["السبت"], ["الأحد"]],
    "hi": [["सोमवार"], ["मंगलवार"], ["बुधवार"], ["गुरुवार", "बृहस्पतिवार"], ["शुक्रवार"], ["शनिवार"], ["रविवार"]],
}


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def ar_days(n: int) -> str:
    """'n days' with the counted-noun agreement of Modern Standard Arabic."""
    if 3 <= n <= 10:
        return f"{n} أيام"
    if 11 <= n % 100 <= 99:
        return f"{n} يومًا"
    return f"{n} يوم"


def ko_topic(name: str) -> str:
    """Topic particle: 은 after a final consonant, 는 after a vowel."""
    last = ord(name[-1]) - 0xAC00
    return name + ("은" if 0 <= last < 11172 and last % 28 else "는")


def fmt_decimal(value: Fraction, lang: str) -> str:
    """The exact decimal of a value with at most three decimals, in the locale's style."""
    scaled = value * 1000
    assert scaled.denominator == 1, value
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(int(scaled)), 1000)
    text = f"{sign}{whole}" + (f".{frac:03d}".rstrip("0") if frac else "")
    assert Fraction(text) == value
    return text.replace(".", ",") if lang in DECIMAL_COMMA else text


# --- arithmetic ------------------------------------------------------------------------------


def arithmetic(lang: str, difficulty: str, rng: random.Random) -> tuple[str, int, dict]:
    person = rng.choice(NAMES[lang])
    name = person[0]
    lo = 11 if lang == "ar" else 3  # Arabic: counted nouns from 11 take the singular
    a, b, c = rng.randrange(max(lo, 12), 60), rng.randrange(lo, 40), rng.randrange(lo, 12 if lang != "ar" else 20)
    k = rng.randrange(3 if lang != "ar" else 11, 13 if lang != "ar" else 20)
    if difficulty == "easy":
        value, expr = a + b, f"{a} + {b}"
    elif difficulty == "medium":
        value, expr = a + b - c, f"{a} + {b} - {c}"
    else:
        b = rng.randrange(3 if lang != "ar" else 11, 9 if lang != "ar" else 16)
        value, expr = a + b * k - c, f"{a} + {b} x {k} - {c}"
    f = person[1] == "f" if len(person) > 1 else False
    if lang == "en":
        t = {
            "easy": f"{name} has {a} apples and buys {b} more. How many apples does {name} have now?",
            "medium": f"{name} has {a} apples, buys {b} more and then gives {c} to a neighbour. How many apples does {name} have now?",
            "hard": f"{name} already has {a} pencils and buys {b} boxes with {k} pencils in each. Then {name} gives {c} pencils to classmates. How many pencils does {name} have now?",
        }[difficulty] + " Reply with the number only."
    elif lang == "de":
        t = {
            "easy": f"{name} hat {a} Äpfel und kauft {b} dazu. Wie viele Äpfel hat {name} jetzt?",
            "medium": f"{name} hat {a} Äpfel, kauft {b} dazu und schenkt dann {c} davon einer Nachbarin. Wie viele Äpfel hat {name} jetzt?",
            "hard": f"{name} hat schon {a} Bleistifte und kauft {b} Schachteln mit je {k} Bleistiften. Dann verschenkt {name} {c} Bleistifte an Mitschüler. Wie viele Bleistifte hat {name} jetzt?",
        }[difficulty] + " Antworte nur mit der Zahl."
    elif lang == "fr":
        t = {
            "easy": f"{name} a {a} pommes et en achète {b} de plus. Combien de pommes possède {name} maintenant ?",
            "medium": f"{name} a {a} pommes, en achète {b} de plus, puis en donne {c} à une voisine. Combien de pommes possède {name} maintenant ?",
            "hard": f"{name} a déjà {a} crayons et achète {b} boîtes de {k} crayons chacune. Ensuite, {name} donne {c} crayons à des camarades. Combien de crayons possède {name} maintenant ?",
        }[difficulty] + " Réponds uniquement par le nombre."
    elif lang == "es":
        t = {
            "easy": f"{name} tiene {a} manzanas y compra {b} más. ¿Cuántas manzanas tiene {name} ahora?",
            "medium": f"{name} tiene {a} manzanas, compra {b} más y luego le regala {c} a una vecina. ¿Cuántas manzanas tiene {name} ahora?",
            "hard": f"{name} ya tiene {a} lápices y compra {b} cajas de {k} lápices cada una. Después, {name} regala {c} lápices a sus compañeros. ¿Cuántos lápices tiene {name} ahora?",
        }[difficulty] + " Responde solo con el número."
    elif lang == "ru":
        gen = person[2]
        bought = "купила" if f else "купил"
        gave = "отдала" if f else "отдал"
        gifted = "подарила" if f else "подарил"
        apples = lambda n: f"{n} {ru_plural(n, 'яблоко', 'яблока', 'яблок')}"  # noqa: E731
        pencils = lambda n: f"{n} {ru_plural(n, 'карандаш', 'карандаша', 'карандашей')}"  # noqa: E731
        boxes = f"{b} {ru_plural(b, 'коробку', 'коробки', 'коробок')}"
        t = {
            "easy": f"У {gen} было {apples(a)}. {name} {bought} ещё {apples(b)}. Сколько яблок теперь у {gen}?",
            "medium": f"У {gen} было {apples(a)}. {name} {bought} ещё {apples(b)}, а потом {gave} {apples(c)} соседке. Сколько яблок теперь у {gen}?",
            "hard": f"У {gen} было {pencils(a)}. {name} {bought} {boxes} по {pencils(k)} в каждой, а потом {gifted} {pencils(c)} одноклассникам. Сколько карандашей теперь у {gen}?",
        }[difficulty] + " Ответь только числом."
    elif lang == "zh":
        t = {
            "easy": f"{name}有{a}个苹果，又买了{b}个。{name}现在有多少个苹果？",
            "medium": f"{name}有{a}个苹果，又买了{b}个，然后送给邻居{c}个。{name}现在有多少个苹果？",
            "hard": f"{name}原来有{a}支铅笔，又买了{b}盒铅笔，每盒{k}支。然后{name}送给同学{c}支。{name}现在有多少支铅笔？",
        }[difficulty] + "只回答数字。"
    elif lang == "ja":
        t = {
            "easy": f"{name}さんはりんごを{a}個持っていて、さらに{b}個買いました。{name}さんは今、りんごを何個持っていますか？",
            "medium": f"{name}さんはりんごを{a}個持っていて、さらに{b}個買い、そのあと近所の人に{c}個あげました。{name}さんは今、りんごを何個持っていますか？",
            "hard": f"{name}さんは鉛筆を{a}本持っています。{k}本入りの箱を{b}箱買い、そのあとクラスメートに{c}本あげました。{name}さんは今、鉛筆を何本持っていますか？",
        }[difficulty] + "数字だけで答えてください。"
    elif lang == "ko":
        top = ko_topic(name)
        t = {
            "easy": f"{top} 사과를 {a}개 가지고 있고 {b}개를 더 샀습니다. {top} 지금 사과를 몇 개 가지고 있습니까?",
            "medium": f"{top} 사과를 {a}개 가지고 있었고, {b}개를 더 산 뒤 이웃에게 {c}개를 주었습니다. {top} 지금 사과를 몇 개 가지고 있습니까?",
            "hard": f"{top} 연필을 {a}자루 가지고 있었습니다. 한 상자에 {k}자루씩 든 연필을 {b}상자 사고, 친구들에게 {c}자루를 주었습니다. {top} 지금 연필을 몇 자루 가지고 있습니까?",
        }[difficulty] + " 숫자만 답하세요."
    elif lang == "ar":
        bought = "اشترت" if f else "اشترى"
        gave = "أعطت" if f else "أعطى"
        t = {
            "easy": f"لدى {name} {a} تفاحة، و{bought} {b} تفاحة أخرى. كم تفاحة لدى {name} الآن؟",
            "medium": f"لدى {name} {a} تفاحة، {bought} {b} تفاحة أخرى ثم {gave} {c} تفاحة للجيران. كم تفاحة لدى {name} الآن؟",
            "hard": f"لدى {name} {a} قلمًا. {bought} {b} علبة في كل منها {k} قلمًا، ثم {gave} {c} قلمًا لزملاء الصف. كم قلمًا لدى {name} الآن؟",
        }[difficulty] + " أجب بالرقم فقط."
    else:  # hi
        t = {
            "easy": f"{name} के पास {a} सेब हैं। {name} ने {b} सेब और खरीदे। अब {name} के पास कितने सेब हैं?",
            "medium": f"{name} के पास {a} सेब थे। {name} ने {b} सेब और खरीदे और फिर {c} सेब पड़ोसी को दे दिए। अब {name} के पास कितने सेब हैं?",
            "hard": f"{name} के पास पहले से {a} पेंसिलें थीं। {name} ने {b} डिब्बे खरीदे, हर डिब्बे में {k} पेंसिलें थीं। फिर {name} ने {c} पेंसिलें सहपाठियों को दे दीं। अब {name} के पास कितनी पेंसिलें हैं?",
        }[difficulty] + " केवल संख्या लिखें।"
    assert value > 0
    return t, value, {"computation": f"{expr} = {value}"}


# --- weekday ---------------------------------------------------------------------------------


def weekday(lang: str, difficulty: str, rng: random.Random) -> tuple[str, list[str], dict]:
    today = rng.randrange(7)
    n = {"easy": rng.randrange(3, 10), "medium": rng.randrange(10, 31), "hard": rng.randrange(40, 400)}[difficulty]
    target = (today + n) % 7
    day = WEEKDAYS[lang][today][0]
    if lang == "en":
        t = f"Today is {day}. What day of the week will it be in {n} days? Reply with the name of the day only."
    elif lang == "de":
        t = f"Heute ist {day}. Welcher Wochentag ist in {n} Tagen? Antworte nur mit dem Namen des Tages."
    elif lang == "fr":
        t = f"Aujourd'hui, nous sommes {day}. Quel jour de la semaine serons-nous dans {n} jours ? Réponds uniquement par le nom du jour."
    elif lang == "es":
        t = f"Hoy es {day}. ¿Qué día de la semana será dentro de {n} días? Responde solo con el nombre del día."
    elif lang == "ru":
        t = f"Сегодня {day}. Какой день недели будет через {n} {ru_plural(n, 'день', 'дня', 'дней')}? Ответь только названием дня."
    elif lang == "zh":
        t = f"今天是{day}。{n}天后是星期几？只回答星期几。"
    elif lang == "ja":
        t = f"今日は{day}です。{n}日後は何曜日ですか？曜日だけを答えてください。"
    elif lang == "ko":
        t = f"오늘은 {day}입니다. {n}일 후는 무슨 요일입니까? 요일만 답하세요."
    elif lang == "ar":
        t = f"اليوم هو {day}. ما يوم الأسبوع بعد {ar_days(n)}؟ أجب باسم اليوم فقط."
    else:
        t = f"आज {day} है। {n} दिन बाद सप्ताह का कौन-सा दिन होगा? केवल दिन का नाम लिखें।"
    return t, list(WEEKDAYS[lang][target]), {"computation": f"(weekday {today} + {n}) mod 7 = weekday {target} (0 = Monday)"}


# --- compare (mc) ----------------------------------------------------------------------------

COMPARE_Q = {
    "en": ("Which number is the largest?", "Which number is the smallest?", "Which weighs the most?", "Reply with the letter only."),
    "de": ("Welche Zahl ist am größten?", "Welche Zahl ist am kleinsten?", "Was ist am schwersten?", "Antworte nur mit dem Buchstaben."),
    "fr": ("Quel nombre est le plus grand ?", "Quel nombre est le plus petit ?", "Lequel est le plus lourd ?", "Réponds uniquement par la lettre."),
    "es": ("¿Qué número es el mayor?", "¿Qué número es el menor?", "¿Cuál pesa más?", "Responde solo con la letra."),
    "ru": ("Какое число самое большое?", "Какое число самое маленькое?", "Что весит больше всего?", "Ответь только буквой."),
    "zh": ("哪个数最大？", "哪个数最小？", "哪个最重？", "只回答字母。"),
    "ja": ("どの数がいちばん大きいですか？", "どの数がいちばん小さいですか？", "どれがいちばん重いですか？", "アルファベットの記号だけで答えてください。"),
    "ko": ("어느 수가 가장 큽니까?", "어느 수가 가장 작습니까?", "어느 것이 가장 무겁습니까?", "보기의 알파벳만 답하세요."),
    "ar": ("أي عدد هو الأكبر؟", "أي عدد هو الأصغر؟", "أيها الأثقل؟", "أجب بالحرف فقط."),
    "hi": ("कौन-सी संख्या सबसे बड़ी है?", "कौन-सी संख्या सबसे छोटी है?", "इनमें से सबसे भारी कौन-सा है?", "केवल अक्षर लिखें।"),
}


def compare(lang: str, difficulty: str, rng: random.Random) -> tuple[str, list[str], str, dict]:
    kg, g = ("кг", "г") if lang == "ru" else ("kg", "g")
    if difficulty == "easy":
        base = rng.randrange(1000, 90000)
        values = [Fraction(base + d) for d in rng.sample(range(-900, 900), 4)]
        texts = [str(int(v)) for v in values]
        best = max(values)
        question = COMPARE_Q[lang][0]
    elif difficulty == "medium":
        whole = rng.randrange(1, 9)
        values = [Fraction(-whole * 100 - d, 100) for d in rng.sample([5, 10, 25, 40, 50, 75, 80, 95], 3)]
        values.append(Fraction(rng.randrange(1, 900), 100))
        texts = [fmt_decimal(v, lang) for v in values]
        best = min(values)
        question = COMPARE_Q[lang][1]
    else:
        grams = rng.sample(range(700, 2600, 25), 4)
        values = [Fraction(x) for x in grams]
        texts = []
        for x in grams:
            if rng.random() < 0.5:
                texts.append(f"{fmt_decimal(Fraction(x, 1000), lang)} {kg}")
            else:
                texts.append(f"{x} {g}")
        best = max(values)
        question = COMPARE_Q[lang][2]
    assert len(set(values)) == 4 and len(set(texts)) == 4
    order = list(range(4))
    rng.shuffle(order)
    choices = [texts[i] for i in order]
    ordered_values = [values[i] for i in order]
    label = LABELS[ordered_values.index(best)]
    lines = "\n".join(f"{LABELS[i]}. {c}" for i, c in enumerate(choices))
    prompt = f"{question}\n\n{lines}\n\n{COMPARE_Q[lang][3]}"
    why = "values in grams: " if difficulty == "hard" else "values: "
    why += ", ".join(f"{LABELS[i]}={ordered_values[i]}" for i in range(4))
    return prompt, choices, label, {"computation": why}


# --- scoreboard (contains) --------------------------------------------------------------------


def scoreboard(lang: str, difficulty: str, rng: random.Random) -> tuple[str, str, dict]:
    people = [p[0] for p in rng.sample(NAMES[lang], 4)]
    lo = 11
    scores = rng.sample(range(lo, 20 if lang == "ru" else 60), 4)
    if lang == "ru":
        scores = rng.sample(range(11, 20), 4)  # 11-19 all take the genitive plural "очков"
    ranked = sorted(zip(scores, people), reverse=True)
    ask = None
    if difficulty == "easy":
        answer = ranked[0][1]
    elif difficulty == "medium":
        answer = ranked[1][1]
    else:
        i, j = rng.sample(range(4), 2)
        if scores[i] < scores[j]:
            i, j = j, i
        ask = (people[i], scores[i] - scores[j])
        answer = people[j]
        assert sum(1 for s in scores if scores[i] - s == ask[1]) == 1
    x, d = ask if ask else (None, None)
    if lang == "en":
        lines = ["Quiz results:"] + [f"{p}: {s} points" for p, s in zip(people, scores)]
        q = {"easy": "Who scored the most points?", "medium": "Who had the second highest score?", "hard": f"Who scored exactly {d} points fewer than {x}?"}[difficulty] + " Reply with the name only."
    elif lang == "de":
        lines = ["Quizergebnisse:"] + [f"{p}: {s} Punkte" for p, s in zip(people, scores)]
        q = {"easy": "Wer hat die meisten Punkte erzielt?", "medium": "Wer hat die zweithöchste Punktzahl?", "hard": f"Wer hat genau {d} Punkte weniger als {x}?"}[difficulty] + " Antworte nur mit dem Namen."
    elif lang == "fr":
        lines = ["Résultats du quiz :"] + [f"{p} : {s} points" for p, s in zip(people, scores)]
        q = {"easy": "Qui a marqué le plus de points ?", "medium": "Qui a obtenu le deuxième meilleur score ?", "hard": f"Qui a exactement {d} points de moins que {x} ?"}[difficulty] + " Réponds uniquement par le prénom."
    elif lang == "es":
        lines = ["Resultados del concurso:"] + [f"{p}: {s} puntos" for p, s in zip(people, scores)]
        q = {"easy": "¿Quién consiguió más puntos?", "medium": "¿Quién obtuvo la segunda puntuación más alta?", "hard": f"¿Quién tiene exactamente {d} puntos menos que {x}?"}[difficulty] + " Responde solo con el nombre."
    elif lang == "ru":
        lines = ["Результаты викторины:"] + [f"{p}: {s} {ru_plural(s, 'очко', 'очка', 'очков')}" for p, s in zip(people, scores)]
        q = {"easy": "Кто набрал больше всего очков?", "medium": "Кто занял второе место по очкам?", "hard": f"Кто набрал ровно на {d} {ru_plural(d or 0, 'очко', 'очка', 'очков')} меньше, чем {x}?"}[difficulty] + " Ответь только именем."
    elif lang == "zh":
        lines = ["知识竞赛结果："] + [f"{p}：{s}分" for p, s in zip(people, scores)]
        q = {"easy": "谁得分最高？", "medium": "谁的得分排第二？", "hard": f"谁的得分正好比{x}少{d}分？"}[difficulty] + "只回答名字。"
    elif lang == "ja":
        lines = ["クイズの結果："] + [f"{p}：{s}点" for p, s in zip(people, scores)]
        q = {"easy": "最も多く点を取ったのは誰ですか？", "medium": "2番目に点が高かったのは誰ですか？", "hard": f"{x}さんよりちょうど{d}点少なかったのは誰ですか？"}[difficulty] + "名前だけを答えてください。"
    elif lang == "ko":
        lines = ["퀴즈 결과:"] + [f"{p}: {s}점" for p, s in zip(people, scores)]
        q = {"easy": "누가 가장 높은 점수를 받았습니까?", "medium": "두 번째로 높은 점수를 받은 사람은 누구입니까?", "hard": f"{x}보다 정확히 {d}점 낮은 사람은 누구입니까?"}[difficulty] + " 이름만 답하세요."
    elif lang == "ar":
        lines = ["نتائج المسابقة:"] + [f"{p}: {s} نقطة" for p, s in zip(people, scores)]
        q = {"easy": "من حصل على أكبر عدد من النقاط؟", "medium": "من حصل على ثاني أعلى عدد من النقاط؟", "hard": f"من كان مجموع نقاطه أقل من مجموع نقاط {x} بمقدار {d} بالضبط؟"}[difficulty] + " أجب بالاسم فقط."
    else:
        lines = ["प्रश्नोत्तरी के परिणाम:"] + [f"{p}: {s} अंक" for p, s in zip(people, scores)]
        q = {"easy": "सबसे अधिक अंक किसने प्राप्त किए?", "medium": "दूसरे सबसे अधिक अंक किसने प्राप्त किए?", "hard": f"{x} से ठीक {d} अंक कम किसने प्राप्त किए?"}[difficulty] + " केवल नाम लिखें।"
    prompt = "\n".join(lines) + "\n\n" + q
    return prompt, answer, {"scores": dict(zip(people, scores)), "computation": f"ranking {[p for _, p in ranked]}" + (f"; {x} - {d}" if ask else "")}


# --- assembly --------------------------------------------------------------------------------


def make_rows() -> list[dict]:
    for lang in LANGS:
        names = [p[0] for p in NAMES[lang]]
        assert not any(a != b and a.casefold() in b.casefold() for a in names for b in names), lang
        flat = [s for day in WEEKDAYS[lang] for s in day]
        for i, day in enumerate(WEEKDAYS[lang]):
            for spelling in day:  # no spelling of one day occurs inside another day's spelling
                assert not any(spelling.casefold() in other.casefold() for j, d in enumerate(WEEKDAYS[lang]) if j != i for other in d), (lang, spelling)
        assert len(flat) == len(set(flat))
    rows: list[dict] = []
    seen: set[str] = set()
    for lang in LANGS:
        for kind in ("arithmetic", "weekday", "compare", "scoreboard"):
            rng = random.Random(_lib.stable_seed(DATASET_ID, SEED, lang, kind))
            for difficulty in DIFFICULTY_PLAN:
                while True:
                    row: dict[str, Any] = {"category": kind, "difficulty": difficulty}
                    if kind == "arithmetic":
                        prompt, value, meta = arithmetic(lang, difficulty, rng)
                        row.update(prompt=prompt, answer=value, scorer="numeric")
                    elif kind == "weekday":
                        prompt, spellings, meta = weekday(lang, difficulty, rng)
                        row.update(prompt=prompt, answer=spellings, scorer="contains")
                    elif kind == "compare":
                        prompt, choices, label, meta = compare(lang, difficulty, rng)
                        row.update(prompt=prompt, choices=choices, answer=label, scorer="mc")
                    else:
                        prompt, name, meta = scoreboard(lang, difficulty, rng)
                        row.update(prompt=prompt, answer=name, scorer="contains")
                    if prompt not in seen:
                        break
                seen.add(prompt)
                row["meta"] = {"lang": lang, "script": SCRIPTS[lang], **meta}
                row["id"] = f"ml-{len(rows) + 1:04d}"
                rows.append(row)
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    _lib.assert_unique_text((r["id"], r["prompt"]) for r in rows)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "The same four item kinds (arithmetic word problems, weekday arithmetic, "
            "comparisons with locale number formats, quiz scoreboards) in ten languages and "
            "six scripts: en, de, fr, es, ru, zh, ja, ko, ar, hi; scorers numeric, contains, mc"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="contains",
        extra={"langs": list(LANGS), "scripts": SCRIPTS},
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
