"""Authored text for gen_eval_instruction_v1.py: topics, tasks, sentence frames, the
instruction phrasings and the foreign-language sentence pools.

Everything here was written for this repository. The topic clauses are plain, durable
facts (nothing that goes stale, nothing that depends on taste); they only feed the
generated `meta.example_pass` answers, which prove each row's rules are satisfiable and
are never sent to a model.
"""

from __future__ import annotations

# (key, noun phrase used in tasks, keywords, clauses). Clauses start lower-case and carry
# no final punctuation; a frame turns each into a sentence. Keywords occur in the clauses.
TOPICS: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    ("tides", "ocean tides", ("moon", "gravity", "harbour", "coast"), (
        "the gravity of the moon pulls on the oceans and raises a bulge of water",
        "most coasts see two high tides and two low tides in about a day",
        "spring tides happen when the sun and the moon line up",
        "neap tides are weaker because the sun and the moon pull at right angles",
        "the shape of a bay can make the tidal range much larger",
        "tide tables tell sailors when a harbour is deep enough to enter",
    )),
    ("bees", "honeybee colonies", ("queen", "nectar", "hive", "pollen"), (
        "a colony has one queen who lays nearly all of the eggs",
        "worker bees turn nectar into honey by evaporating most of its water",
        "bees carry pollen from flower to flower and help plants make seeds",
        "a forager can tell her sisters where food is with a waggle dance",
        "the hive is built from wax that young workers make in their bodies",
        "in winter the bees cluster together to keep the hive warm",
    )),
    ("volcanoes", "how volcanoes form", ("magma", "plates", "eruption", "lava"), (
        "magma rises because it is lighter than the solid rock around it",
        "many volcanoes sit where tectonic plates pull apart or push together",
        "an eruption can be gentle when the magma is runny and gas escapes easily",
        "sticky magma traps gas and tends to produce explosive eruptions",
        "lava that cools quickly can form glassy rock",
        "island chains can grow over hot spots deep in the mantle",
    )),
    ("bread", "baking bread at home", ("yeast", "dough", "gluten", "oven"), (
        "yeast feeds on sugar and releases gas that makes the dough rise",
        "kneading develops gluten which traps that gas in a stretchy web",
        "a slow rise in a cool room gives the bread more flavour",
        "a hot oven sets the crust before the loaf dries out",
        "steam in the first minutes of baking helps the crust stay thin",
        "the loaf should cool on a rack so the crumb can finish setting",
    )),
    ("rainbows", "why rainbows appear", ("sunlight", "droplets", "colours", "angle"), (
        "sunlight bends as it enters a raindrop and bends again as it leaves",
        "each colour bends by a slightly different amount and the light spreads out",
        "you see a rainbow only when the sun is behind you",
        "the bow sits at about the same angle from the point opposite the sun",
        "a second fainter bow can appear with its colours in reverse order",
        "millions of droplets each send one colour toward your eye",
    )),
    ("compost", "making garden compost", ("microbes", "carbon", "nitrogen", "moisture"), (
        "microbes break down kitchen scraps and leaves into dark crumbly soil",
        "dry brown material supplies carbon and green material supplies nitrogen",
        "a heap needs air so turning it now and then speeds things up",
        "the pile should feel about as damp as a wrung-out sponge",
        "a busy heap can grow warm in the middle as the microbes work",
        "finished compost smells earthy rather than sour",
    )),
    ("bicycles", "how a bicycle stays upright", ("wheels", "steering", "balance", "speed"), (
        "a moving bicycle steers itself a little toward the side it leans",
        "the rider keeps balance by making many small steering corrections",
        "spinning wheels add some stability but are not the whole story",
        "the front fork is angled so the wheel trails behind the steering axis",
        "at very low speed balancing takes much more effort",
        "leaning into a turn balances the pull toward the outside",
    )),
    ("libraries", "how public libraries organise books", ("catalogue", "shelves", "classification", "readers"), (
        "a classification scheme gives every subject its own number",
        "books on related subjects end up next to each other on the shelves",
        "the catalogue records the author and title and subject of each item",
        "call numbers on the spine tell readers where a book belongs",
        "returned books are checked in before they go back on the shelves",
        "librarians also help readers judge which sources to trust",
    )),
    ("clouds", "how clouds form", ("vapour", "air", "droplets", "temperature"), (
        "warm air can hold more water vapour than cold air",
        "rising air cools as it expands and its vapour starts to condense",
        "tiny specks of dust give the droplets something to form on",
        "flat layered clouds form when a wide sheet of air rises slowly",
        "tall heaped clouds grow when warm air rises quickly",
        "the temperature at which condensation begins is called the dew point",
    )),
    ("maps", "reading a topographic map", ("contour", "scale", "elevation", "legend"), (
        "each contour line joins points of the same elevation",
        "lines packed closely together mean the ground is steep",
        "the scale tells you how far a centimetre on paper is on the ground",
        "the legend explains the symbols for paths and rivers and buildings",
        "a grid lets you describe any spot with a short reference",
        "valleys show up as contour lines that form a V pointing uphill",
    )),
    ("vaccines", "how vaccines train the immune system", ("immune", "antibodies", "memory", "cells"), (
        "a vaccine shows the immune system a harmless piece or version of a germ",
        "the body answers by making antibodies that fit that particular germ",
        "memory cells remain afterwards and respond faster next time",
        "some vaccines need a second dose to build a strong memory",
        "when most people are protected a germ finds it harder to spread",
        "side effects such as a sore arm are signs the immune system is working",
    )),
    ("chess", "the opening phase of a chess game", ("centre", "pieces", "king", "tempo"), (
        "controlling the centre gives the pieces more room to move",
        "knights and bishops usually come out before the queen",
        "castling tucks the king away and connects the rooks",
        "moving the same piece twice early on can waste tempo",
        "pawns in front of the king are worth keeping where they are",
        "each move should have a clear purpose for the position",
    )),
    ("seeds", "how seeds sprout", ("water", "root", "shoot", "light"), (
        "a seed holds a tiny plant and a store of food",
        "water softens the seed coat and wakes the embryo up",
        "the root usually pushes out first and anchors the seedling",
        "the shoot bends toward the light once it breaks the surface",
        "many seeds need warmth before they will sprout at all",
        "the first leaves often look different from the later ones",
    )),
    ("bridges", "how arch bridges carry loads", ("arch", "stone", "compression", "abutments"), (
        "an arch turns the weight above it into a push along its curve",
        "stone is strong when squeezed so compression suits it well",
        "the abutments at each end must resist the outward thrust",
        "a keystone at the top locks the other stones in place",
        "builders used wooden frames to hold the stones until the arch was closed",
        "a well-shaped arch can stand for centuries without any mortar",
    )),
    ("sleep", "why sleep matters", ("brain", "memory", "rest", "cycles"), (
        "the brain sorts and stores memories while we sleep",
        "a night of sleep passes through several cycles of light and deep stages",
        "dreams are most vivid in the stage with rapid eye movement",
        "a regular bedtime helps the body clock stay steady",
        "bright screens late in the evening can delay sleepiness",
        "rest helps muscles repair after a busy day",
    )),
    ("recycling", "recycling aluminium cans", ("aluminium", "energy", "metal", "furnace"), (
        "recycling aluminium uses far less energy than making new metal from ore",
        "cans are shredded and the coating is burned off",
        "the metal is melted in a furnace and cast into large blocks",
        "the blocks are rolled into thin sheets for new cans",
        "aluminium can be recycled again and again without losing quality",
        "a can returned today can be back on a shelf within weeks",
    )),
    ("stars", "the life of a star", ("hydrogen", "fusion", "gravity", "core"), (
        "a star is born when gravity pulls a cloud of gas together",
        "fusion in the core turns hydrogen into helium and releases energy",
        "the outward push of that energy balances the inward pull of gravity",
        "small stars burn slowly and live far longer than large ones",
        "a star like the sun will swell into a red giant late in life",
        "the heaviest stars end in huge explosions that scatter new elements",
    )),
    ("coffee", "how coffee is roasted", ("beans", "roast", "heat", "flavour"), (
        "green coffee beans have little of the aroma of a brewed cup",
        "heat drives off water and starts the reactions that brown the beans",
        "the beans crack audibly as steam and gas escape",
        "a light roast keeps more of the fruity flavour of the bean",
        "a dark roast tastes more bitter and smoky",
        "roasted beans lose their freshness over a few weeks",
    )),
    ("wind", "how wind turbines make electricity", ("blades", "generator", "wind", "tower"), (
        "the wind pushes on the blades and turns the rotor",
        "a gearbox or a large generator turns slow rotation into electricity",
        "taller towers reach steadier and stronger wind",
        "the turbine turns to face the wind as its direction changes",
        "the blades can be angled to spill wind in a storm",
        "many turbines together form a wind farm that feeds the grid",
    )),
    ("ants", "how ants find food", ("trail", "scent", "colony", "scouts"), (
        "scouts wander until one of them finds something to eat",
        "on the way home the scout leaves a scent trail on the ground",
        "other ants follow the trail and strengthen it when they find food too",
        "shorter routes get more traffic and so their scent builds up faster",
        "a trail fades when the food runs out and nobody renews it",
        "the colony as a whole finds good routes without any ant planning them",
    )),
    ("glass", "how glass is made", ("sand", "furnace", "molten", "cooling"), (
        "most glass starts as sand mixed with soda ash and lime",
        "the mixture melts in a furnace at a very high temperature",
        "molten glass can be blown or pressed or floated into shape",
        "flat window glass is made by floating the melt on a bath of tin",
        "slow cooling relieves stresses that could make the glass crack",
        "glass is hard yet brittle because its atoms are not in a regular pattern",
    )),
    ("migration", "bird migration", ("birds", "route", "season", "navigation"), (
        "many birds fly long distances between summer and winter homes",
        "the change of season and the length of the day trigger the urge to move",
        "birds use the sun and the stars for navigation",
        "some species can sense the magnetic field of the earth",
        "young birds of some species make the first journey without their parents",
        "stopover sites along the route let them rest and refuel",
    )),
    ("batteries", "how rechargeable batteries work", ("charge", "ions", "electrodes", "current"), (
        "a battery stores energy in chemicals held apart inside it",
        "during discharge ions move between the electrodes through the electrolyte",
        "electrons flow through the outside circuit as a current",
        "charging pushes the ions back to where they started",
        "heat and deep discharge both wear a battery out faster",
        "a battery slowly loses capacity over many cycles of charge and use",
    )),
    ("forests", "how forests store carbon", ("trees", "carbon", "soil", "leaves"), (
        "trees take carbon dioxide from the air to build wood",
        "a large share of the carbon in a forest is held in its soil",
        "fallen leaves and branches feed the soil as they decay",
        "old forests keep storing carbon for a very long time",
        "a young forest grows fast and draws carbon down quickly",
        "fire and clearing release stored carbon back into the air",
    )),
    ("telescopes", "how telescopes gather light", ("lens", "mirror", "light", "focus"), (
        "a telescope collects more light than the pupil of an eye",
        "a refractor bends light through a lens to a focus",
        "a reflector uses a curved mirror to bring light to a focus",
        "a wider opening shows fainter objects and finer detail",
        "air moving above the telescope makes stars twinkle and blurs the view",
        "observatories are built on high dry mountains for clearer skies",
    )),
    ("cheese", "how cheese is made", ("milk", "curds", "whey", "salt"), (
        "cheese begins with milk that is soured by friendly bacteria",
        "an enzyme makes the milk set into a soft gel",
        "cutting the gel separates the curds from the whey",
        "salt draws out more moisture and slows unwanted microbes",
        "pressing the curds gives a firmer cheese",
        "ageing in a cool room lets the flavour deepen over months",
    )),
    ("earthquakes", "why earthquakes happen", ("faults", "waves", "plates", "energy"), (
        "rock on either side of a fault locks together while stress builds up",
        "when the rock finally slips the stored energy is released at once",
        "the energy travels outward as waves through the ground",
        "fast waves arrive first and slower shaking waves arrive later",
        "most large earthquakes happen near the edges of tectonic plates",
        "buildings that can flex a little are less likely to collapse",
    )),
    ("printing", "the movable type printing press", ("type", "ink", "press", "pages"), (
        "each letter was cast as a separate piece of metal type",
        "the type was set in lines and locked into a frame",
        "ink was spread over the type before each impression",
        "a screw press squeezed the paper firmly against the inked type",
        "the same type could be reused for page after page",
        "printed books became cheaper and spread ideas much faster",
    )),
    ("lighthouses", "how lighthouses guide ships", ("lamp", "lens", "ships", "signal"), (
        "a lighthouse marks a dangerous coast or the entrance to a harbour",
        "a large lens gathers the light of the lamp into a strong beam",
        "each lighthouse flashes its own pattern so ships can tell which one it is",
        "the charts on board list the signal of every light along the coast",
        "the tower is tall so the light can be seen from far out at sea",
        "in fog a horn can sound a warning when the light cannot be seen",
    )),
    ("snow", "how snowflakes form", ("ice", "crystals", "vapour", "branches"), (
        "a snowflake starts as a tiny ice crystal high in a cloud",
        "water vapour freezes onto the crystal and it slowly grows",
        "the six-sided shape comes from the way water molecules fit together",
        "the temperature and the moisture decide whether branches or plates grow",
        "each flake takes its own path through the cloud so no two are exactly alike",
        "fresh snow is mostly air which is why it muffles sound",
    )),
]

# Sentences that fit any topic; {t} is the topic's noun phrase.
GENERIC: list[str] = [
    "There is more to {t} than most people notice at first.",
    "A little patience makes {t} much easier to understand.",
    "Each part of {t} connects to the others in a sensible way.",
    "Curiosity is the best guide when you start learning about {t}.",
    "Small details about {t} often turn out to matter most.",
    "Good guides on {t} start with the basics and build from there.",
    "Once the main idea of {t} clicks the rest follows naturally.",
    "Asking simple questions is a great way to explore {t}.",
    "Many everyday things make more sense once you know about {t}.",
    "People have studied {t} for a long time and still find new things.",
    "A simple sketch can make {t} much clearer.",
    "Trying a small experiment is a lively way to learn about {t}.",
    "The ideas behind {t} are easier than they first sound.",
    "It helps to compare {t} with something familiar.",
    "Learning about {t} rewards anyone who keeps asking why.",
]

# Frames that turn a clause into a sentence; {c} is the clause.
FRAMES: list[str] = [
    "{C}.",
    "It helps to know that {c}.",
    "One useful fact is that {c}.",
    "People are often surprised that {c}.",
    "In short, {c}.",
    "Put simply, {c}.",
    "A good starting point is that {c}.",
    "Remember that {c}.",
    "It is worth noting that {c}.",
    "As a rule, {c}.",
    "You may already know that {c}.",
    "Here is the key point: {c}.",
]

# Task forms; {t} is the noun phrase. No commas, so a repeated task survives "no commas".
TASKS: list[str] = [
    "Write a short blog post about {t}.",
    "Explain {t} to a curious twelve-year-old.",
    "Write a note for a community newsletter about {t}.",
    "Draft a brief talk for a school assembly on {t}.",
    "Describe {t} for an information card in a science museum.",
    "Write a friendly email to a colleague that explains {t}.",
    "Give a beginner's overview of {t}.",
    "Compose a short radio segment that introduces listeners to {t}.",
    "Prepare revision notes on {t} for a student.",
    "Write a short answer for a question-and-answer page about {t}.",
]

QUESTION_TASK = "Is it true that {c}?"

KEYWORD_FRAMES: list[str] = [
    "The word {w} belongs in any account of this.",
    "Keep {w} in mind as you read on.",
    "Nobody can explain this well without {w}.",
    "Think about {w} for a moment.",
    "Here {w} plays its part.",
    "Notice how {w} fits into the picture.",
]

PLACEHOLDER_NAMES: list[str] = [
    "name", "address", "date", "school name", "city", "phone number", "email address",
    "your example", "website", "teacher's name", "time", "room number",
]
PLACEHOLDER_FRAMES: list[str] = [
    "Add [{p}] before you share this.",
    "Fill in [{p}] where it fits.",
    "You can put [{p}] here.",
    "Remember to include [{p}].",
]

CAPS_WORDS: list[str] = ["KEY", "CORE", "VITAL", "NOTE", "MAIN", "BASIC", "CLEAR", "TRUE", "REAL", "BIG"]

TITLE_FRAMES: list[str] = ["Notes on {T}", "A Short Guide to {T}", "Understanding {T}", "All About {T}", "A First Look at {T}"]

POSTSCRIPTS: list[str] = [
    "I hope this helps you get started.",
    "Feel free to share this with anyone who is curious.",
    "There is always more to discover on this subject.",
    "Thanks for taking the time to read this.",
    "A library is a great place to learn more.",
]

STARTS: list[str] = ["Here is what I found", "Let me explain", "Good question", "To begin with", "Dear reader"]
ENDS: list[str] = [
    "Is there anything else I can help with?",
    "Thanks for reading.",
    "That is all for now.",
    "Let me know if you have other questions.",
    "Stay curious.",
]
FIRST_WORDS: list[str] = ["However", "Meanwhile", "Finally", "Overall", "Next", "Imagine", "Consider", "Interestingly"]
FILLER_WORDS: list[str] = ["very", "really", "basically", "actually", "simply", "just", "thing", "stuff", "amazing", "quite"]
OPTION_SETS: list[list[str]] = [
    ["My answer is yes.", "My answer is no.", "My answer is maybe."],
    ["Yes.", "No.", "Not sure."],
    ["I agree.", "I disagree.", "I am not sure."],
]
# Index of the option a correct answer to a true statement picks, per option set.
OPTION_TRUE = [0, 0, 0]

LANG_NAMES = {"fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "ru": "Russian", "ja": "Japanese", "zh": "Chinese"}

LANG_SENTENCES: dict[str, list[str]] = {
    "fr": [
        "Ce sujet est plus riche qu'il n'y paraît au premier regard.",
        "Il faut du temps pour bien comprendre tous les détails.",
        "Les idées principales sont simples et elles se tiennent entre elles.",
        "On apprend mieux quand on pose des questions précises.",
        "Un bon exemple vaut souvent mieux qu'une longue explication.",
        "Les spécialistes étudient cette question depuis longtemps.",
        "Chaque partie du sujet éclaire les autres.",
        "Il est utile de revenir aux bases de temps en temps.",
        "La curiosité reste le meilleur guide pour avancer.",
        "Nous pouvons tous comprendre l'essentiel avec un peu de patience.",
        "Les erreurs font aussi partie de l'apprentissage.",
        "Il y a toujours une nouvelle question à explorer.",
    ],
    "de": [
        "Dieses Thema ist reicher, als es auf den ersten Blick scheint.",
        "Es braucht etwas Zeit, um die Einzelheiten zu verstehen.",
        "Die wichtigsten Ideen sind einfach und hängen eng zusammen.",
        "Man lernt am besten, wenn man genaue Fragen stellt.",
        "Ein gutes Beispiel ist oft besser als eine lange Erklärung.",
        "Fachleute beschäftigen sich schon lange mit dieser Frage.",
        "Jeder Teil des Themas wirft Licht auf die anderen.",
        "Es ist nützlich, ab und zu zu den Grundlagen zurückzukehren.",
        "Die Neugier ist der beste Wegweiser für den nächsten Schritt.",
        "Mit etwas Geduld kann jeder das Wesentliche verstehen.",
        "Auch Fehler gehören zum Lernen dazu.",
        "Es gibt immer noch eine neue Frage, die man erkunden kann.",
    ],
    "es": [
        "Este tema es más rico de lo que parece a primera vista.",
        "Se necesita tiempo para entender bien los detalles.",
        "Las ideas principales son sencillas y están muy relacionadas.",
        "Se aprende mejor cuando se hacen preguntas precisas.",
        "Un buen ejemplo vale más que una larga explicación.",
        "Los especialistas estudian esta cuestión desde hace mucho tiempo.",
        "Cada parte del tema ilumina a las demás.",
        "Es útil volver a lo básico de vez en cuando.",
        "La curiosidad es la mejor guía para avanzar.",
        "Con un poco de paciencia todos podemos entender lo esencial.",
        "Los errores también son parte del aprendizaje.",
        "Siempre hay una nueva pregunta que explorar.",
    ],
    "it": [
        "Questo tema è più ricco di quanto sembri a prima vista.",
        "Serve tempo per capire bene tutti i dettagli.",
        "Le idee principali sono semplici e sono legate tra loro.",
        "Si impara meglio quando si fanno domande precise.",
        "Un buon esempio vale più di una lunga spiegazione.",
        "Gli esperti studiano questa questione da molto tempo.",
        "Ogni parte del tema illumina le altre.",
        "È utile tornare alle basi di tanto in tanto.",
        "La curiosità è la guida migliore per andare avanti.",
        "Con un po' di pazienza tutti possono capire l'essenziale.",
        "Anche gli errori fanno parte dell'apprendimento.",
        "C'è sempre una nuova domanda da esplorare.",
    ],
    "pt": [
        "Este tema é mais rico do que parece à primeira vista.",
        "É preciso tempo para entender bem os detalhes.",
        "As ideias principais são simples e estão muito ligadas.",
        "Aprende-se melhor quando se fazem perguntas precisas.",
        "Um bom exemplo vale mais do que uma longa explicação.",
        "Os especialistas estudam esta questão há muito tempo.",
        "Cada parte do tema ilumina as outras.",
        "É útil voltar ao básico de vez em quando.",
        "A curiosidade é o melhor guia para avançar.",
        "Com um pouco de paciência todos podem entender o essencial.",
        "Os erros também fazem parte da aprendizagem.",
        "Há sempre uma nova pergunta para explorar.",
    ],
    "ru": [
        "Эта тема богаче, чем кажется на первый взгляд.",
        "Чтобы понять детали, нужно время.",
        "Главные идеи просты и тесно связаны между собой.",
        "Лучше всего учиться, задавая точные вопросы.",
        "Хороший пример часто лучше длинного объяснения.",
        "Специалисты давно изучают этот вопрос.",
        "Каждая часть темы помогает понять остальные.",
        "Полезно время от времени возвращаться к основам.",
        "Любопытство остаётся лучшим проводником.",
        "С небольшим терпением каждый может понять главное.",
        "Ошибки тоже часть обучения.",
        "Всегда есть новый вопрос, который стоит изучить.",
    ],
    "ja": [
        "このテーマは一見したよりも奥が深いです。",
        "細かい点を理解するには時間がかかります。",
        "主な考え方はシンプルで、互いにつながっています。",
        "具体的な質問をすると、よりよく学べます。",
        "よい例は長い説明よりも役に立つことが多いです。",
        "専門家は長い間この問題を研究してきました。",
        "ときどき基本に立ち返るのは役に立ちます。",
        "好奇心は前に進むための一番の案内役です。",
        "間違いも学びの一部です。",
        "いつも新しい問いが待っています。",
    ],
    "zh": [
        "这个话题比乍看之下更加丰富。",
        "要理解细节需要一些时间。",
        "主要的想法很简单，而且彼此相关。",
        "提出具体的问题能让人学得更好。",
        "一个好例子往往胜过长篇解释。",
        "专家们研究这个问题已经很久了。",
        "时常回到基础知识是很有用的。",
        "好奇心是前进的最佳向导。",
        "错误也是学习的一部分。",
        "总有新的问题值得探索。",
    ],
}
