# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-tools-v1: function calling scored by `tool_call`.

Every row offers several OpenAI function schemas in `meta.tools` (sent as the request's
`tools` with `tool_choice: "auto"`) and expects `answer.tool_call = {name, arguments}`, or
`null` when the right answer is not to call a tool at all. The offered tools always include
look-alikes of the right one from the same domain (current weather vs forecast, send vs
draft, lock vs unlock, timer vs alarm, ...) plus tools from other domains, in shuffled
order, so the name matters.

Categories (300 rows):

* simple        (easy)   one request, the arguments are stated literally
* lookalike     (medium) the wording picks one of several similar tools
* optional      (medium) optional arguments stated (they must be passed) or not
* conversion    (hard)   arguments must be normalised: dates in words or computed from the
                         calendar, times of day, durations, numbers in words, ISO currency
                         and language codes, Fahrenheit to Celsius (exact values only)
* no_call       (easy..hard) no offered tool fits, the user asks not to act, or the only
                         tool would do the opposite of what is asked
* multi_turn    (hard)   the arguments come from earlier turns of the conversation

`meta.arguments_match` is "exact" on rows whose expected call sets every property of the
tool (the reply may then add nothing); the rest compare as a subset. Free text the user
does not dictate (an e-mail body) is never part of the expected arguments. `meta.why`
says where each argument comes from; every computed value (a weekday of a month, a
duration, a temperature) is computed with the standard library and the row asserts that
the expected arguments validate against the tool's own schema.

    python datasets/_gen/gen_eval_tools_v1.py [--out DIR]
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "eval-tools-v1"
SEED = 5_300_101

# --- made-up names ------------------------------------------------------------------------

ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kl", "st", "tr", "gr", "h", "w"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ei", "ou", "ia"]
CODAS = ["", "", "n", "r", "l", "s", "k", "m", "nd", "rt", "sk", "lm", "th"]


def word(rng: random.Random, syllables: int = 2) -> str:
    return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(syllables))


def city(rng: random.Random) -> str:
    return word(rng, rng.choice((2, 3))).capitalize()


def first_name(rng: random.Random) -> str:
    return word(rng, 2).capitalize()


def ident(rng: random.Random, prefix: str, digits: int = 4) -> str:
    return f"{prefix}-{rng.randrange(10 ** (digits - 1), 10**digits)}"


def email(rng: random.Random) -> str:
    return f"{word(rng, 2)}@{word(rng, 2)}.example"


def a_date(rng: random.Random) -> dt.date:
    return dt.date(2031, 1, 1) + dt.timedelta(days=rng.randrange(0, 3 * 365))


def hhmm(rng: random.Random, step: int = 15, lo: int = 7, hi: int = 21) -> str:
    return f"{rng.randrange(lo, hi):02d}:{rng.randrange(0, 60, step):02d}"


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ORDINALS = ["first", "second", "third", "fourth"]


def ordinal_suffix(n: int) -> str:
    return "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def date_words(d: dt.date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}{ordinal_suffix(d.day)}, {d.year}"


def nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    d = dt.date(year, month, 1)
    d += dt.timedelta(days=(weekday - d.weekday()) % 7)
    return d + dt.timedelta(weeks=n - 1)


def time_words(t: str) -> str:
    """'15:30' -> 'half past three in the afternoon' (minutes 0/15/30/45 only)."""
    h, m = map(int, t.split(":"))
    part = "in the morning" if h < 12 else ("in the afternoon" if h < 18 else "in the evening")
    h12 = h % 12 or 12
    if m == 0:
        return f"{NUMBER_WORDS[h12]} o'clock {part}"
    if m == 15:
        return f"quarter past {NUMBER_WORDS[h12]} {part}"
    if m == 30:
        return f"half past {NUMBER_WORDS[h12]} {part}"
    nxt = (h + 1) % 12 or 12
    return f"quarter to {NUMBER_WORDS[nxt]} {part}"


def words_to_time(text: str) -> str:
    """The inverse of time_words, written independently (the proof of a conversion row)."""
    m = re.fullmatch(r"(?:(quarter past|half past|quarter to) )?(\w+)(?: o'clock)? in the (morning|afternoon|evening)", text)
    assert m, text
    rel, hour_word, part = m.groups()
    hour = NUMBER_WORDS.index(hour_word)
    minutes = {"quarter past": 15, "half past": 30, "quarter to": -15, None: 0}[rel]
    if part != "morning" and hour != 12:
        hour += 12
    if part == "morning" and hour == 12:
        hour = 0
    total = hour * 60 + minutes
    return f"{total // 60:02d}:{total % 60:02d}"


DURATIONS = {
    "a quarter of an hour": 15, "half an hour": 30, "three quarters of an hour": 45, "an hour": 60,
    "an hour and a quarter": 75, "an hour and a half": 90, "two hours": 120, "two and a half hours": 150,
}

# --- the tool catalogue ---------------------------------------------------------------------

DATE_DESC = "Calendar date as YYYY-MM-DD"
TIME_DESC = "24-hour time as HH:MM"


def tool(name: str, description: str, props: dict[str, dict], required: list[str]) -> dict:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": props, "required": required, "additionalProperties": False},
        },
    }


S = lambda d, **kw: {"type": "string", "description": d, **kw}  # noqa: E731
I = lambda d, **kw: {"type": "integer", "description": d, **kw}  # noqa: E731
N = lambda d, **kw: {"type": "number", "description": d, **kw}  # noqa: E731
B = lambda d: {"type": "boolean", "description": d}  # noqa: E731

UNITS = ["m", "km", "mi", "ft", "in", "cm", "kg", "lb", "g", "oz", "l", "ml", "gal"]
CURRENCIES = {"US dollars": "USD", "euros": "EUR", "Japanese yen": "JPY", "pounds sterling": "GBP", "Swiss francs": "CHF", "Canadian dollars": "CAD", "Swedish kronor": "SEK", "Indian rupees": "INR"}
LANGUAGES = {"German": "de", "French": "fr", "Spanish": "es", "Italian": "it", "Japanese": "ja", "Portuguese": "pt", "Dutch": "nl", "Korean": "ko", "Polish": "pl", "Turkish": "tr"}
PLACES = ["pharmacy", "restaurant", "fuel_station", "hospital", "atm", "parking", "library"]

TOOLS: dict[str, dict] = {t["function"]["name"]: t for t in [
    tool("get_current_weather", "Current conditions at a place.", {"location": S("City name"), "unit": S("Temperature unit", enum=["celsius", "fahrenheit"])}, ["location"]),
    tool("get_weather_forecast", "Daily forecast for the coming days.", {"location": S("City name"), "days": I("Number of days to forecast, 1-10", minimum=1, maximum=10), "unit": S("Temperature unit", enum=["celsius", "fahrenheit"])}, ["location", "days"]),
    tool("create_calendar_event", "Add a new event to the user's calendar.", {"title": S("Event title"), "date": S(DATE_DESC), "start_time": S(TIME_DESC), "duration_minutes": I("Length in minutes", minimum=1), "attendees": {"type": "array", "items": {"type": "string"}, "description": "Names of people to invite"}, "location": S("Where the event takes place")}, ["title", "date", "start_time", "duration_minutes"]),
    tool("update_calendar_event", "Change the date, time or length of an existing event.", {"event_id": S("Identifier such as EV-1234"), "date": S(DATE_DESC), "start_time": S(TIME_DESC), "duration_minutes": I("Length in minutes", minimum=1)}, ["event_id"]),
    tool("delete_calendar_event", "Remove an event from the calendar.", {"event_id": S("Identifier such as EV-1234")}, ["event_id"]),
    tool("list_calendar_events", "List the events on one day.", {"date": S(DATE_DESC)}, ["date"]),
    tool("send_email", "Send an e-mail immediately.", {"to": S("Recipient address"), "subject": S("Subject line"), "body": S("Message text"), "cc": S("Address to copy")}, ["to", "subject", "body"]),
    tool("draft_email", "Save an e-mail as a draft without sending it.", {"to": S("Recipient address"), "subject": S("Subject line"), "body": S("Message text")}, ["to", "subject", "body"]),
    tool("search_emails", "Search the mailbox.", {"query": S("Words to search for"), "sender": S("Only mail from this address"), "unread_only": B("Only unread mail")}, ["query"]),
    tool("search_files", "Find files by content or name.", {"query": S("Words to search for"), "extension": S("File extension without the dot, e.g. pdf")}, ["query"]),
    tool("read_file", "Return the contents of a file.", {"path": S("Absolute path")}, ["path"]),
    tool("move_file", "Move or rename a file.", {"source": S("Current absolute path"), "destination": S("New absolute path")}, ["source", "destination"]),
    tool("delete_file", "Delete a file permanently.", {"path": S("Absolute path")}, ["path"]),
    tool("set_timer", "Start a countdown timer.", {"minutes": I("Length of the countdown in minutes", minimum=1), "label": S("Name shown when it rings")}, ["minutes"]),
    tool("set_alarm", "Set an alarm for a time of day.", {"time": S(TIME_DESC), "label": S("Name shown when it rings")}, ["time"]),
    tool("create_reminder", "Remind the user of something at a date and time.", {"text": S("What to remind about"), "date": S(DATE_DESC), "time": S(TIME_DESC)}, ["text", "date", "time"]),
    tool("convert_units", "Convert a quantity between units.", {"value": N("Quantity to convert"), "from_unit": S("Unit of the value", enum=UNITS), "to_unit": S("Unit wanted", enum=UNITS)}, ["value", "from_unit", "to_unit"]),
    tool("convert_currency", "Convert money at today's rate.", {"amount": N("Amount of money"), "from_currency": S("ISO 4217 code, e.g. USD"), "to_currency": S("ISO 4217 code, e.g. EUR")}, ["amount", "from_currency", "to_currency"]),
    tool("set_thermostat", "Set a room's target temperature.", {"room": S("Room name"), "temperature_c": N("Target in degrees Celsius")}, ["room", "temperature_c"]),
    tool("set_light", "Switch or dim the lights in a room.", {"room": S("Room name"), "on": B("true to switch on, false to switch off"), "brightness": I("Brightness in percent, 1-100", minimum=1, maximum=100)}, ["room", "on"]),
    tool("lock_door", "Lock a door.", {"door": S("Door name, e.g. front")}, ["door"]),
    tool("unlock_door", "Unlock a door.", {"door": S("Door name, e.g. front")}, ["door"]),
    tool("create_task", "Add a task to a project.", {"title": S("Task title"), "project": S("Project name"), "due_date": S(DATE_DESC), "priority": S("Priority", enum=["low", "medium", "high"])}, ["title"]),
    tool("complete_task", "Mark a task as done.", {"task_id": S("Identifier such as TK-1234")}, ["task_id"]),
    tool("list_tasks", "List the tasks of a project.", {"project": S("Project name"), "status": S("Which tasks", enum=["open", "done", "all"])}, ["project"]),
    tool("track_package", "Where a parcel is now.", {"tracking_number": S("Tracking number"), "carrier": S("Carrier name")}, ["tracking_number"]),
    tool("schedule_pickup", "Book a courier to collect parcels.", {"address": S("Pickup address"), "date": S(DATE_DESC), "parcels": I("Number of parcels", minimum=1)}, ["address", "date", "parcels"]),
    tool("get_customer", "Fetch one customer record.", {"customer_id": S("Identifier such as C-12345")}, ["customer_id"]),
    tool("search_customers", "Find customers by name.", {"name": S("Full or partial name"), "city": S("Only customers in this city")}, ["name"]),
    tool("update_customer_email", "Change a customer's e-mail address.", {"customer_id": S("Identifier such as C-12345"), "email": S("New address")}, ["customer_id", "email"]),
    tool("play_music", "Play songs, albums or artists.", {"query": S("What to play"), "shuffle": B("Shuffle the order")}, ["query"]),
    tool("pause_music", "Pause playback.", {}, []),
    tool("set_volume", "Set the playback volume.", {"level": I("Volume in percent, 0-100", minimum=0, maximum=100)}, ["level"]),
    tool("get_directions", "Route between two places.", {"origin": S("Start"), "destination": S("End"), "mode": S("Travel mode", enum=["driving", "walking", "cycling", "transit"])}, ["origin", "destination"]),
    tool("find_nearby", "Find places of a kind near a location.", {"category": S("Kind of place", enum=PLACES), "location": S("City or landmark"), "radius_m": I("Search radius in metres", minimum=100)}, ["category", "location"]),
    tool("translate_text", "Translate text.", {"text": S("Text to translate"), "target_language": S("ISO 639-1 code, e.g. de"), "source_language": S("ISO 639-1 code of the source, if known")}, ["text", "target_language"]),
    tool("book_table", "Reserve a restaurant table.", {"restaurant": S("Restaurant name"), "date": S(DATE_DESC), "time": S(TIME_DESC), "party_size": I("Number of guests", minimum=1)}, ["restaurant", "date", "time", "party_size"]),
    tool("cancel_booking", "Cancel a restaurant reservation.", {"booking_id": S("Identifier such as BK-1234")}, ["booking_id"]),
]}

DOMAINS: dict[str, list[str]] = {
    "weather": ["get_current_weather", "get_weather_forecast"],
    "calendar": ["create_calendar_event", "update_calendar_event", "delete_calendar_event", "list_calendar_events"],
    "email": ["send_email", "draft_email", "search_emails"],
    "files": ["search_files", "read_file", "move_file", "delete_file"],
    "clock": ["set_timer", "set_alarm", "create_reminder"],
    "convert": ["convert_units", "convert_currency"],
    "home": ["set_thermostat", "set_light", "lock_door", "unlock_door"],
    "tasks": ["create_task", "complete_task", "list_tasks"],
    "shipping": ["track_package", "schedule_pickup"],
    "crm": ["get_customer", "search_customers", "update_customer_email"],
    "music": ["play_music", "pause_music", "set_volume"],
    "maps": ["get_directions", "find_nearby"],
    "translate": ["translate_text"],
    "dining": ["book_table", "cancel_booking"],
}
DOMAIN_OF = {name: d for d, names in DOMAINS.items() for name in names}


def validate_call(name: str, arguments: dict[str, Any]) -> None:
    """The expected call must be a valid call of the tool's own schema."""
    params = TOOLS[name]["function"]["parameters"]
    props = params["properties"]
    assert set(arguments) <= set(props), (name, arguments)
    for key, value in arguments.items():
        p = props[key]
        kind = p["type"]
        if kind == "string":
            assert isinstance(value, str) and value.strip(), (name, key, value)
            if "enum" in p:
                assert value in p["enum"], (name, key, value)
            if p.get("description") == DATE_DESC:
                dt.date.fromisoformat(value)
            if p.get("description") == TIME_DESC:
                assert re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", value), value
        elif kind == "integer":
            assert isinstance(value, int) and not isinstance(value, bool), (name, key, value)
            assert p.get("minimum", value) <= value <= p.get("maximum", value), (name, key, value)
        elif kind == "number":
            assert isinstance(value, (int, float)) and not isinstance(value, bool)
        elif kind == "boolean":
            assert isinstance(value, bool)
        elif kind == "array":
            assert isinstance(value, list) and all(isinstance(v, str) for v in value)


# --- scenarios -------------------------------------------------------------------------------
# A scenario returns (prompt, tool name, arguments, why, omitted) where omitted names the
# required arguments deliberately left out of the expected call (free text).

Scenario = tuple[str, str, dict, str, list]

ROOMS = ["kitchen", "bedroom", "study", "hallway", "garage", "nursery", "attic", "porch"]
DOORS = ["front", "back", "garage", "side", "cellar", "garden"]
PROJECTS = ["orchard", "lighthouse", "atlas", "harbour", "meadow", "granite", "willow", "beacon"]
TOPICS = ["quarterly budget", "roof repair", "kiln schedule", "choir rota", "seed order", "bridge survey", "ferry timetable", "loom maintenance", "glacier photos", "bakery invoice"]


def sc_weather(rng: random.Random, kind: str) -> Scenario:
    place = city(rng)
    if kind == "simple":
        return (f"What's the weather like in {place} right now?", "get_current_weather", {"location": place}, "current conditions, location stated", [])
    if kind == "lookalike":
        n = rng.randrange(2, 11)
        return (f"Will I need an umbrella in {place} at any point over the next {n} days?", "get_weather_forecast", {"location": place, "days": n}, f"a forecast of {n} days, not current conditions", [])
    if kind == "optional":
        unit = rng.choice(["fahrenheit", "celsius"])
        return (f"How warm is it in {place} at the moment? Give me the temperature in {unit.capitalize()}.", "get_current_weather", {"location": place, "unit": unit}, "current conditions with the unit the user asked for", [])
    n = rng.randrange(2, 10)
    return (f"Could you pull up the forecast for {place} covering the next {NUMBER_WORDS[n]} days?", "get_weather_forecast", {"location": place, "days": n}, f"'{NUMBER_WORDS[n]}' days = {n}", [])


def sc_calendar(rng: random.Random, kind: str) -> Scenario:
    title = f"{rng.choice(TOPICS)} review"
    day = a_date(rng)
    start = hhmm(rng)
    if kind == "simple":
        dur = rng.choice((15, 30, 45, 60, 90))
        return (f"Put '{title}' on my calendar for {day.isoformat()} at {start}, {dur} minutes long.", "create_calendar_event", {"title": title, "date": day.isoformat(), "start_time": start, "duration_minutes": dur}, "all four required fields stated", [])
    if kind == "lookalike":
        event = ident(rng, "EV")
        choice = rng.randrange(3)
        if choice == 0:
            return (f"Event {event} needs to move to {day.isoformat()} at {start}.", "update_calendar_event", {"event_id": event, "date": day.isoformat(), "start_time": start}, "an existing event is moved: update, not create", [])
        if choice == 1:
            return (f"Please take {event} off my calendar entirely.", "delete_calendar_event", {"event_id": event}, "removal of an existing event", [])
        return (f"What do I have scheduled on {day.isoformat()}?", "list_calendar_events", {"date": day.isoformat()}, "a read of one day, nothing is created", [])
    if kind == "optional":
        people = [first_name(rng), first_name(rng)]
        room = f"room {rng.randrange(100, 500)}"
        dur = rng.choice((30, 45, 60))
        return (
            f"Schedule '{title}' on {day.isoformat()} at {start} for {dur} minutes in {room}, and invite {people[0]} and {people[1]}.",
            "create_calendar_event",
            {"title": title, "date": day.isoformat(), "start_time": start, "duration_minutes": dur, "attendees": people, "location": room},
            "optional attendees (in the order named) and location are stated, so they are expected",
            [],
        )
    month = rng.randrange(1, 13)
    year = rng.choice((2031, 2032, 2033))
    weekday = rng.randrange(0, 5)
    nth = rng.randrange(1, 4)
    when = nth_weekday(year, month, weekday, nth)
    start = rng.choice(["09:30", "10:15", "14:45", "15:30", "16:00", "11:00", "13:15"])
    phrase, dur = rng.choice(sorted(DURATIONS.items()))
    assert words_to_time(time_words(start)) == start
    return (
        f"Book '{title}' into my calendar on the {ORDINALS[nth - 1]} {WEEKDAYS[weekday]} of {MONTHS[month - 1]} {year}, starting at {time_words(start)} and lasting {phrase}.",
        "create_calendar_event",
        {"title": title, "date": when.isoformat(), "start_time": start, "duration_minutes": dur},
        f"the {ORDINALS[nth - 1]} {WEEKDAYS[weekday]} of {MONTHS[month - 1]} {year} is {when.isoformat()} (computed); {time_words(start)} = {start}; {phrase} = {dur} minutes",
        [],
    )


def sc_email(rng: random.Random, kind: str) -> Scenario:
    to = email(rng)
    subject = f"{rng.choice(TOPICS)} {rng.choice(['update', 'question', 'notes', 'plan'])}"
    if kind == "simple":
        return (f"Send an email to {to} with the subject '{subject}' saying the files are ready.", "send_email", {"to": to, "subject": subject}, "send now; the body is free text and not compared", ["body"])
    if kind == "lookalike":
        return (f"Write up an email to {to} titled '{subject}' but don't send it yet - just keep it as a draft.", "draft_email", {"to": to, "subject": subject}, "the user asks for a draft, not a sent mail", ["body"])
    if kind == "optional":
        cc = email(rng)
        return (f"Email {to} about '{subject}' (that's the subject line), copy {cc}, and tell them the meeting moved.", "send_email", {"to": to, "subject": subject, "cc": cc}, "the optional cc is stated", ["body"])
    sender = email(rng)
    topic = rng.choice(TOPICS)
    return (f"Dig up any unread messages from {sender} that mention '{topic}'.", "search_emails", {"query": topic, "sender": sender, "unread_only": True}, "a search, restricted to unread mail from one sender", [])


def sc_files(rng: random.Random, kind: str) -> Scenario:
    folder = f"/home/{word(rng, 2)}/{rng.choice(PROJECTS)}"
    fname = f"{word(rng, 2)}.{rng.choice(['txt', 'md', 'csv'])}"
    if kind == "simple":
        return (f"Show me what's inside {folder}/{fname}.", "read_file", {"path": f"{folder}/{fname}"}, "read one file by its absolute path", [])
    if kind == "lookalike":
        other = f"/home/{word(rng, 2)}/archive/{fname}"
        if rng.random() < 0.5:
            return (f"Move {folder}/{fname} to {other}.", "move_file", {"source": f"{folder}/{fname}", "destination": other}, "a move, not a delete or read", [])
        return (f"Get rid of {folder}/{fname}, I don't need it any more.", "delete_file", {"path": f"{folder}/{fname}"}, "the user wants the file deleted", [])
    topic = rng.choice(TOPICS)
    ext = rng.choice(["pdf", "docx", "xlsx", "pptx"])
    label = {"pdf": "PDF", "docx": "Word", "xlsx": "Excel", "pptx": "PowerPoint"}[ext]
    return (f"Find my {label} files (.{ext}) that mention '{topic}'.", "search_files", {"query": topic, "extension": ext}, "optional extension stated (without the dot)", [])


def sc_clock(rng: random.Random, kind: str) -> Scenario:
    if kind == "simple":
        n = rng.randrange(2, 90)
        return (f"Start a {n}-minute timer.", "set_timer", {"minutes": n}, "a countdown of n minutes", [])
    if kind == "lookalike":
        t = hhmm(rng, 5, 5, 10)
        return (f"Wake me up at {t} tomorrow.", "set_alarm", {"time": t}, "a time of day: alarm, not a countdown timer", [])
    if kind == "optional":
        n = rng.randrange(3, 60)
        label = f"{rng.choice(['bread', 'tea', 'laundry', 'pasta', 'glaze', 'resin'])} {rng.choice(['check', 'done', 'out'])}"
        return (f"Timer for {n} minutes please, and label it '{label}'.", "set_timer", {"minutes": n, "label": label}, "the optional label is stated", [])
    if rng.random() < 0.5:
        phrase, minutes = rng.choice(sorted(DURATIONS.items()))
        return (f"Count down {phrase} for me.", "set_timer", {"minutes": minutes}, f"{phrase} = {minutes} minutes", [])
    t = rng.choice(["06:45", "07:15", "05:30", "06:00", "07:45", "08:30"])
    return (f"I need to be up at {time_words(t)}; set an alarm.", "set_alarm", {"time": t}, f"{time_words(t)} = {t}", [])


def sc_convert(rng: random.Random, kind: str) -> Scenario:
    if kind in ("simple", "optional"):
        a, b = rng.sample(["km", "mi", "m", "ft"], 2) if rng.random() < 0.5 else rng.sample(["kg", "lb", "g", "oz"], 2)
        v = rng.randrange(2, 500)
        names = {"km": "kilometres", "mi": "miles", "m": "metres", "ft": "feet", "kg": "kilograms", "lb": "pounds", "g": "grams", "oz": "ounces"}
        return (f"How many {names[b]} is {v} {names[a]}?", "convert_units", {"value": v, "from_unit": a, "to_unit": b}, f"{names[a]} -> {a}, {names[b]} -> {b} (the tool's unit symbols)", [])
    (na, ca), (nb, cb) = rng.sample(sorted(CURRENCIES.items()), 2)
    amount = rng.randrange(5, 5000)
    return (f"What would {amount} {na} come to in {nb}?", "convert_currency", {"amount": amount, "from_currency": ca, "to_currency": cb}, f"ISO 4217: {na} = {ca}, {nb} = {cb}", [])


F_TO_C = {50: 10, 59: 15, 64.4: 18, 68: 20, 71.6: 22, 75.2: 24, 77: 25}


def sc_home(rng: random.Random, kind: str) -> Scenario:
    room = rng.choice(ROOMS)
    if kind == "simple":
        t = rng.randrange(16, 25)
        return (f"Set the {room} thermostat to {t} degrees Celsius.", "set_thermostat", {"room": room, "temperature_c": t}, "room and Celsius target stated", [])
    if kind == "lookalike":
        door = rng.choice(DOORS)
        if rng.random() < 0.5:
            return (f"Make sure the {door} door is locked for the night.", "lock_door", {"door": door}, "lock, not unlock", [])
        return (f"My sister is arriving - let her in through the {door} door.", "unlock_door", {"door": door}, "letting someone in means unlocking", [])
    if kind == "optional":
        if rng.random() < 0.5:
            b = rng.randrange(10, 95)
            return (f"Dim the {room} lights to {b} percent.", "set_light", {"room": room, "on": True, "brightness": b}, "lights stay on at the stated brightness", [])
        return (f"Switch off the lights in the {room}.", "set_light", {"room": room, "on": False}, "on=false; no brightness stated", [])
    f = rng.choice(sorted(F_TO_C))
    c = F_TO_C[f]
    assert abs((f - 32) * 5 / 9 - c) < 1e-9
    return (f"Make the {room} {f:g} degrees Fahrenheit.", "set_thermostat", {"room": room, "temperature_c": c}, f"{f:g} F = ({f:g} - 32) x 5/9 = {c} C exactly", [])


def sc_tasks(rng: random.Random, kind: str) -> Scenario:
    project = rng.choice(PROJECTS)
    title = f"{rng.choice(['draft', 'review', 'order', 'measure', 'paint', 'test'])} the {rng.choice(TOPICS)}"
    if kind == "simple":
        return (f"Add a task '{title}' to the {project} project.", "create_task", {"title": title, "project": project}, "title and project stated", [])
    if kind == "lookalike":
        if rng.random() < 0.5:
            task = ident(rng, "TK")
            return (f"I've finished {task}, tick it off.", "complete_task", {"task_id": task}, "mark an existing task done", [])
        return (f"Which tasks in {project} are still open?", "list_tasks", {"project": project, "status": "open"}, "a listing, filtered to open tasks", [])
    day = a_date(rng)
    prio = rng.choice(["low", "medium", "high"])
    if kind == "optional":
        return (f"New task for {project}: '{title}', {prio} priority, due {day.isoformat()}.", "create_task", {"title": title, "project": project, "priority": prio, "due_date": day.isoformat()}, "optional priority and due date stated", [])
    return (f"Create the task '{title}' in {project}, due on {date_words(day)}, {prio} priority.", "create_task", {"title": title, "project": project, "priority": prio, "due_date": day.isoformat()}, f"{date_words(day)} = {day.isoformat()}", [])


def sc_shipping(rng: random.Random, kind: str) -> Scenario:
    number = f"{rng.choice('QWRTZ')}{rng.randrange(10**9, 10**10)}"
    if kind in ("simple", "lookalike"):
        return (f"Where's my parcel {number} right now?", "track_package", {"tracking_number": number}, "tracking, not a pickup", [])
    addr = f"{rng.randrange(1, 200)} {word(rng, 2).capitalize()} Road, {city(rng)}"
    day = a_date(rng)
    n = rng.randrange(2, 9)
    if kind == "optional":
        return (f"Have a courier collect {n} parcels from {addr} on {day.isoformat()}.", "schedule_pickup", {"address": addr, "date": day.isoformat(), "parcels": n}, "all pickup fields stated", [])
    return (f"Arrange a pickup of {NUMBER_WORDS[n]} boxes at {addr} on {date_words(day)}.", "schedule_pickup", {"address": addr, "date": day.isoformat(), "parcels": n}, f"'{NUMBER_WORDS[n]}' = {n}; {date_words(day)} = {day.isoformat()}", [])


def sc_crm(rng: random.Random, kind: str) -> Scenario:
    cid = ident(rng, "C", 5)
    if kind == "simple":
        return (f"Pull up the record for customer {cid}.", "get_customer", {"customer_id": cid}, "fetch by id", [])
    if kind == "lookalike":
        addr = email(rng)
        return (f"Customer {cid} has a new address: {addr}. Please update it.", "update_customer_email", {"customer_id": cid, "email": addr}, "an update, not a fetch", [])
    name = f"{first_name(rng)} {word(rng, 2).capitalize()}"
    place = city(rng)
    return (f"Look for customers called {name} based in {place}.", "search_customers", {"name": name, "city": place}, "search by name, optional city stated", [])


def sc_music(rng: random.Random, kind: str) -> Scenario:
    who = first_name(rng)
    if kind == "simple":
        v = rng.randrange(5, 100)
        return (f"Set the volume to {v} percent.", "set_volume", {"level": v}, "volume level stated", [])
    album = f"{word(rng, 2).capitalize()} {word(rng, 1).capitalize()}"
    if kind == "lookalike":
        return (f"Stop the song for a moment, {who} is calling me.", "pause_music", {}, "a pause (no arguments), not a volume change", [])
    if kind == "optional":
        return (f"Play the album {album}, shuffled.", "play_music", {"query": album, "shuffle": True}, "optional shuffle stated", [])
    v = rng.randrange(2, 10) * 10
    return (f"Turn it down to {NUMBER_WORDS[v // 10]} tenths of full volume.", "set_volume", {"level": v}, f"{NUMBER_WORDS[v // 10]} tenths = {v} percent", [])


def sc_maps(rng: random.Random, kind: str) -> Scenario:
    a, b = city(rng), city(rng)
    if kind == "simple":
        return (f"Give me directions from {a} to {b}.", "get_directions", {"origin": a, "destination": b}, "origin and destination stated", [])
    if kind == "optional":
        mode, verb = rng.choice([("cycling", "by bike"), ("walking", "on foot"), ("transit", "by public transport"), ("driving", "by car")])
        return (f"How do I get from {a} to {b} {verb}?", "get_directions", {"origin": a, "destination": b, "mode": mode}, f"'{verb}' = mode {mode}", [])
    cat, noun = rng.choice([("pharmacy", "pharmacies"), ("atm", "cash machines"), ("parking", "car parks"), ("fuel_station", "petrol stations"), ("library", "libraries")])
    if kind == "lookalike":
        return (f"Are there any {noun} near {a}?", "find_nearby", {"category": cat, "location": a}, f"'{noun}' = category {cat}; a search, not a route", [])
    km = rng.choice([1, 2, 3, 5])
    return (f"List {noun} within {km} km of {a}.", "find_nearby", {"category": cat, "location": a, "radius_m": km * 1000}, f"{km} km = {km * 1000} m", [])


PHRASES = ["the blue gate opens at nine", "bring two spare lanterns", "the ferry leaves from pier four", "please water the tomatoes", "the library closes early today", "our train is delayed", "keep the receipt for the kettle"]


def sc_translate(rng: random.Random, kind: str) -> Scenario:
    phrase = f"{rng.choice(PHRASES)}, {first_name(rng)}"
    lang, code = rng.choice(sorted(LANGUAGES.items()))
    if kind == "optional":
        return (f"Translate from English into {lang}: \"{phrase}\"", "translate_text", {"text": phrase, "target_language": code, "source_language": "en"}, f"{lang} = {code}; the source language is stated (English = en)", [])
    return (f"How do you say \"{phrase}\" in {lang}?", "translate_text", {"text": phrase, "target_language": code}, f"ISO 639-1: {lang} = {code}", [])


def sc_dining(rng: random.Random, kind: str) -> Scenario:
    rest = f"{word(rng, 2).capitalize()} {rng.choice(['Bistro', 'Kitchen', 'Grill', 'Table', 'Canteen'])}"
    day = a_date(rng)
    t = rng.choice(["18:00", "18:30", "19:00", "19:30", "20:00", "20:15", "12:30", "13:00"])
    n = rng.randrange(2, 9)
    if kind == "simple":
        return (f"Reserve a table at {rest} for {n} people on {day.isoformat()} at {t}.", "book_table", {"restaurant": rest, "date": day.isoformat(), "time": t, "party_size": n}, "all four fields stated", [])
    if kind == "lookalike":
        bk = ident(rng, "BK")
        return (f"We can't make it - cancel reservation {bk}.", "cancel_booking", {"booking_id": bk}, "cancel, not book", [])
    return (f"Book {rest} for {NUMBER_WORDS[n]} of us on {date_words(day)} at {time_words(t)}.", "book_table", {"restaurant": rest, "date": day.isoformat(), "time": t, "party_size": n}, f"{date_words(day)} = {day.isoformat()}; {time_words(t)} = {t}; {NUMBER_WORDS[n]} = {n}", [])


SCENARIOS: dict[str, Callable[[random.Random, str], Scenario]] = {
    "weather": sc_weather, "calendar": sc_calendar, "email": sc_email, "files": sc_files, "clock": sc_clock,
    "convert": sc_convert, "home": sc_home, "tasks": sc_tasks, "shipping": sc_shipping, "crm": sc_crm,
    "music": sc_music, "maps": sc_maps, "translate": sc_translate, "dining": sc_dining,
}

# --- no-call rows ----------------------------------------------------------------------------


def no_call(rng: random.Random, difficulty: str) -> tuple[str, list[str], str]:
    """(prompt, offered tool names, why) for a request no offered tool should serve."""
    if difficulty == "easy":
        domains = rng.sample(sorted(set(DOMAINS) - {"translate"}), 3)
        offered = [n for d in domains for n in DOMAINS[d]]
        asks = [
            f"Write a four-line poem about a lighthouse keeper called {first_name(rng)}.",
            f"Explain in two sentences what a prime number is, using {rng.randrange(11, 98)} as an example.",
            f"Thanks, {first_name(rng)} here - that's everything I needed for today.",
            f"Give me three name ideas for a cat that likes {rng.choice(['boxes', 'rain', 'socks', 'ladders', 'kettles'])}.",
            f"What does the word '{word(rng, 2)}' remind you of? Just play along.",
        ]
        return rng.choice(asks), offered, "a chat request: no offered tool is relevant"
    if difficulty == "medium":
        domain = rng.choice(["weather", "email", "calendar", "dining", "home"])
        offered = list(DOMAINS[domain]) + rng.choice([DOMAINS["files"], DOMAINS["maps"], DOMAINS["tasks"]])
        place = city(rng)
        asks = {
            "weather": f"Don't look anything up - just tell me in general terms why coastal towns like {place} have milder winters.",
            "email": f"No need to send or save anything: what is a polite subject line for a note thanking {first_name(rng)} for the {rng.choice(TOPICS)}?",
            "calendar": f"Without touching my calendar, how many minutes are there in {rng.randrange(2, 9)} hours?",
            "dining": f"Not booking yet - what does 'prix fixe' mean on the menu at {word(rng, 2).capitalize()} Bistro?",
            "home": f"Just curious, no need to change anything: is {rng.randrange(18, 23)} degrees Celsius a usual room temperature?",
        }
        return asks[domain], offered, "the user explicitly asks for an answer without any action"
    # hard: a tool of the domain is offered, but it would do the wrong thing
    case = rng.randrange(5)
    other = rng.choice([DOMAINS["files"], DOMAINS["music"], DOMAINS["crm"]])
    if case == 0:
        past = dt.date(1990, 1, 1) + dt.timedelta(days=rng.randrange(0, 20 * 365))
        return (f"What was the weather in {city(rng)} on {past.isoformat()}?", ["get_current_weather", "get_weather_forecast", *other],
                "historical weather: the offered tools only give current conditions or a forecast")
    if case == 1:
        return (f"Cancel my reservation {ident(rng, 'BK')}, please.", ["book_table", *other], "cancelling needs cancel_booking, which is not offered; book_table would do the opposite")
    if case == 2:
        return (f"Unlock the {rng.choice(DOORS)} door for the plumber.", ["lock_door", "set_light", *other], "unlocking needs unlock_door, which is not offered; lock_door would do the opposite")
    if case == 3:
        return (f"Delete the task {ident(rng, 'TK')} entirely - don't mark it done, it was created by mistake.", ["create_task", "complete_task", *other], "no delete tool is offered; completing a task is not deleting it")
    return (f"Recall the email I sent to {email(rng)} an hour ago.", ["send_email", "draft_email", *other], "no offered tool can recall a sent message")


# --- multi-turn rows -------------------------------------------------------------------------


def multi_turn(rng: random.Random) -> tuple[list[dict], str, dict, str]:
    case = rng.randrange(5)
    if case == 0:
        place = city(rng)
        n = rng.randrange(2, 8)
        return ([
            {"role": "user", "content": f"I'm heading to {place} next week for a conference."},
            {"role": "assistant", "content": f"That sounds exciting! How can I help with your trip to {place}?"},
            {"role": "user", "content": f"What will the weather be like there over the next {n} days?"},
        ], "get_weather_forecast", {"location": place, "days": n}, "the location comes from the first turn")
    if case == 1:
        cid = ident(rng, "C", 5)
        addr = email(rng)
        return ([
            {"role": "system", "content": f"You are a support assistant. The customer on this chat is {cid}."},
            {"role": "user", "content": f"Hi, I changed jobs and my new address is {addr}."},
            {"role": "assistant", "content": "Congratulations on the new job! Shall I update the address on your account?"},
            {"role": "user", "content": "Yes please."},
        ], "update_customer_email", {"customer_id": cid, "email": addr}, "customer id from the system turn, address from the user's first turn")
    if case == 2:
        rest = f"{word(rng, 2).capitalize()} Grill"
        bk = ident(rng, "BK")
        day = a_date(rng)
        return ([
            {"role": "user", "content": f"Did my booking at {rest} for {day.isoformat()} go through?"},
            {"role": "assistant", "content": f"Yes - it's confirmed under reservation {bk}."},
            {"role": "user", "content": "Plans changed, please cancel it."},
        ], "cancel_booking", {"booking_id": bk}, "the booking id is the one the assistant confirmed")
    if case == 3:
        folder = f"/srv/{rng.choice(PROJECTS)}/{word(rng, 2)}"
        fname = f"{word(rng, 2)}.log"
        return ([
            {"role": "user", "content": f"My build logs live in {folder}."},
            {"role": "assistant", "content": "Got it. What would you like to do with them?"},
            {"role": "user", "content": f"Open {fname} from that folder."},
        ], "read_file", {"path": f"{folder}/{fname}"}, "the absolute path joins the folder from turn one with the file name")
    room = rng.choice(ROOMS)
    b = rng.randrange(20, 80)
    return ([
        {"role": "user", "content": f"The {room} is too bright for reading."},
        {"role": "assistant", "content": f"I can dim the {room} lights for you. What level would you like?"},
        {"role": "user", "content": f"{b} percent, thanks."},
    ], "set_light", {"room": room, "on": True, "brightness": b}, "room from turn one, brightness from the last turn")


# --- assembly --------------------------------------------------------------------------------

CATEGORY_DOMAINS = {
    "simple": sorted(SCENARIOS),
    "lookalike": sorted(set(SCENARIOS) - {"translate"}),
    "optional": sorted(set(SCENARIOS) - {"convert", "dining", "shipping"}),
    "conversion": sorted(set(SCENARIOS) - {"crm", "files", "email"}),
}

PLAN = [  # (category, difficulty, rows)
    ("simple", "easy", 56),
    ("lookalike", "medium", 56),
    ("optional", "medium", 44),
    ("conversion", "hard", 56),
    ("no_call", "easy", 16),
    ("no_call", "medium", 16),
    ("no_call", "hard", 26),
    ("multi_turn", "hard", 30),
]


def offered_tools(rng: random.Random, name: str) -> list[str]:
    domain = DOMAIN_OF[name]
    names = list(DOMAINS[domain])
    others = [d for d in sorted(DOMAINS) if d != domain]
    for d in rng.sample(others, rng.randrange(1, 3)):
        names += DOMAINS[d]
    if len(names) < 3:
        names += DOMAINS[rng.choice([d for d in others if DOMAINS[d][0] not in names])]
    rng.shuffle(names)
    return names


def make_rows() -> list[dict]:
    rows: list[dict] = []
    seen: set[str] = set()
    for category, difficulty, count in PLAN:
        rng = random.Random(_lib.stable_seed(DATASET_ID, SEED, category, difficulty))
        made = 0
        turn = 0
        while made < count:
            meta: dict[str, Any] = {}
            if category == "no_call":
                prompt, names, why = no_call(rng, difficulty)
                rng.shuffle(names)
                body: dict[str, Any] = {"prompt": prompt}
                answer: dict[str, Any] = {"tool_call": None}
                text_key = prompt
            elif category == "multi_turn":
                messages, name, args, why = multi_turn(rng)
                names = offered_tools(rng, name)
                body = {"messages": messages}
                answer = {"tool_call": {"name": name, "arguments": args}}
                text_key = json.dumps(messages)
            else:
                domains = CATEGORY_DOMAINS[category]
                domain = domains[turn % len(domains)]
                turn += 1
                prompt, name, args, why, omitted = SCENARIOS[domain](rng, category)
                names = offered_tools(rng, name)
                body = {"prompt": prompt}
                answer = {"tool_call": {"name": name, "arguments": args}}
                text_key = prompt
                if omitted:
                    meta["not_compared"] = omitted
            if text_key in seen:
                continue
            seen.add(text_key)
            call = answer["tool_call"]
            if call is not None:
                assert call["name"] in names
                validate_call(call["name"], call["arguments"])
                props = TOOLS[call["name"]]["function"]["parameters"]["properties"]
                required = TOOLS[call["name"]]["function"]["parameters"]["required"]
                assert set(required) - set(call["arguments"]) <= set(meta.get("not_compared", [])), (call, required)
                if set(call["arguments"]) == set(props) and rng.random() < 0.6:
                    meta["arguments_match"] = "exact"
                lookalikes = [n for n in names if n != call["name"] and DOMAIN_OF[n] == DOMAIN_OF[call["name"]]]
                meta["lookalikes"] = lookalikes
            else:
                assert len(names) >= 3
            meta["tools"] = [TOOLS[n] for n in names]
            meta["why"] = why
            made += 1
            rows.append({"id": f"tools-{len(rows) + 1:04d}", "category": category, "difficulty": difficulty, **body, "answer": answer, "scorer": "tool_call", "meta": meta})
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    texts = []
    for r in rows:
        if "prompt" in r:
            texts.append((r["id"], r["prompt"]))
        else:
            texts += [(f"{r['id']}#{i}", m["content"]) for i, m in enumerate(r["messages"])]
    _lib.assert_unique_text(texts)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Function calling scored by tool_call: OpenAI function schemas in meta.tools "
            "(sent with tool_choice auto), several look-alike tools per row, optional "
            "arguments, normalised arguments (dates, times, durations, ISO codes), "
            "multi-turn context, and rows where the right answer is not to call"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="tool_call",
        extra={"tool_choice": "auto", "tools_field": "meta.tools"},
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
