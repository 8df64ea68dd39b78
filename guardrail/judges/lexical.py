"""The built-in ``lexical`` judge: a deterministic heuristic, not a model, and it says so.

It reads the claim (the hypothesis) against the cited passage or passages (the premise) in three stages.

1. **Reading** each text once (cached by text: passages repeat across claims): tokens; sentences and clauses (split
   at ``;``, ``but``/``however``/``whereas``, a comma before ``and``/``or``/``which``, ``and``/``or`` before a new
   predicate, the comma after an ``if``/``when``/``unless`` clause); a clause that starts with a pronoun or goes on
   with a new predicate inherits the subject of the one before ("they must be taken as leave"); a table's cells
   (``|``) are clauses of their own. Content words are the words left when stop words, numbers, dates and the
   negation and modal cues are taken out, compared after light stemming (plurals, ``-ed``, ``-ing``, ``-ly``,
   ``-ment``, British ``-ise``/``-our``/``-tre``) and through a small synonym table; a shared six-letter prefix
   (``approval``/``approve``) counts three quarters, a WordNet relation (``_lexicon``: a synonym or derivation, a word
   one step broader or narrower: "guests" for "visitors") 0.85, a light verb ("go", "keep") half and is never an
   added specific. Specifics:

   - quantities: value and unit (time units converted where exact, working days apart, ``%``, currencies with
     ``k``/``million``, counted nouns, ordinals as "floor 3"), a rate (``per week``, ``monthly``, ``each year``;
     "€40 per month" is "€480 a year"; "requests/min"; "four times a day" is every 6 hours) and a bound (``at least``,
     ``up to``, ``more than``, ``or later``, ``capped at``, "limit: £2,000", ranges, a bound turned round by the
     negation before it: "cannot drive more than 9 hours" is at most 9) as an interval; "a $35,000 order" and the
     values of an "if" clause are a *case*, entailed by a rule whose range or threshold it falls in, not addressed by
     one it falls outside of;
   - dates: year, quarter, month, day and weekday in the usual written forms ("31 March", "March 31, 2025",
     "2025-03-31", "31.03.2025", "Q3 2025", "the third quarter", "25 and 26 December"; a year named once holds for
     the dates after it, as a hint that never contradicts; months tell calendar quarters unless a fiscal year is
     in play), and clock times;
   - named entities: runs of capitalised words that do not merely start a sentence, acronyms, product codes;
   - the polarity and modality of each clause: affirmative, negated, *must*, *may*, *must not*, *need not*, and a
     condition ("not permitted unless approved" also reads "requires approval"). Opposite polarities contradict
     ("must" and "optional", "may" and "must not"); "may" and "must" neither entail nor contradict each other;
     "not on Pro" against "only on Enterprise", or against a rule with an "unless", is not a contradiction.

2. **Comparing**. Coverage is the share of the claim's content words (and specifics) the premise has, over the whole
   premise (a claim may draw on two passages joined by a blank line), a little less when no stretch of three
   sentences (with the passage's opening, which later sentences speak about) holds most of it; two or more adjacent
   claim words the premise lacks ("a mobile phone") are an added specific. Each specific is compared in its *slot*:
   the premise clauses that share the most content words with the claim's clause (adjacent word pairs, the subject
   and stated specifics break ties). A specific the slot agrees with is fine; one the slot contradicts (another
   number for the same unit, another date, another name in the same position, the opposite polarity or modality,
   an antonym from a small table or WordNet; in the subject an antonym is another case: "part-time staff") is evidence
   of contradiction, as strong as the slot is well aligned; one the premise does not state at all is an *added
   specific* (neutral), *invented* when no one step of arithmetic on the premise's numbers gives it.

3. **Deciding**. Where the evidence is clean (a number, date or name in conflict in a well-aligned slot; an invented
   number; a date stated less precisely; support scattered over distant sentences; a specific added, weakly stated
   or in conflict in a claim the premise otherwise supports well) the hand-set rule decides: probabilities from
   coverage, added specifics and the strongest conflict. Elsewhere a multinomial logistic model over the same
   evidence, fitted on the development sets (``nli/fit_lexical.py``, weights in ``_lexical_model``), decides, and
   says "contradiction" only when there is a conflict it can name. Never more than about 0.9 for any label.

What it cannot see: relations (who approves whom), paraphrase far from the passage's words and WordNet's, implication
that needs arithmetic, the calendar or world knowledge, quantifiers ("all", "only"), a value bound to the wrong one of
two names in the same clause, a conflict outside the best-aligned clause. Its accuracy is measured on a held-out set
(``nli/pairs.jsonl``) and published in the README.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import ClassVar, NamedTuple, TypeVar

from ..text import normalize
from . import _lexical_model as _model
from ._lexicon import antonyms, concepts
from .base import JudgeFailure, Judgement, Probabilities

__all__ = ["Conflict", "Explanation", "LexicalJudge"]

_K = TypeVar("_K")

# ------------------------------------------------------------------------------------------------ word tables

_STOPWORDS = frozenset(
    """a an the and or but if then else of in on at to for from by with about as into onto over under up down out
    off per via than that this these those there here it its they them their theirs we us our ours you your yours he
    him his she her hers i me my mine who whom whose which what when where why how is are was were be been being am
    do does did done doing has have had having will would might also too very just so such some any all each every
    both either other another most much many few own same again further etc e g ie eg yes like well still yet
    already even ever often through throughout during between among against upon while whether because since until
    till unless although though however therefore thus whereas within inside across along around toward towards
    please plus take takes took taken taking make makes made making itself themselves ourselves yourself yourselves
    herself himself one's s t you'll you're you've you'd we'll we're we've it's that's there's they're they'll
    i'm i'll let's away back aside apart""".split()
)
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "once": 1, "twice": 2,
}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_MULTIPLIERS = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mn": 1_000_000, "million": 1_000_000,
                "bn": 1_000_000_000, "billion": 1_000_000_000}
# Time units in hours, and their family: conversions within a family are exact, across families approximate.
_TIME_UNITS: dict[str, tuple[float, str]] = {}
for _names, _hours, _family in (
    ("second seconds sec secs", 1 / 3600, "h"), ("minute minutes min mins", 1 / 60, "h"),
    ("hour hours hr hrs", 1.0, "h"), ("day days", 24.0, "h"), ("week weeks wk wks", 168.0, "h"),
    ("fortnight fortnights", 336.0, "h"), ("month months", 730.5, "m"), ("year years yr yrs", 8766.0, "m"),
):
    for _name in _names.split():
        _TIME_UNITS[_name] = (_hours, _family)
_RATE_HOURS = {"second": (1 / 3600, "h"), "minute": (1 / 60, "h"), "hour": (1.0, "h"), "day": (24.0, "h"),
               "week": (168.0, "h"), "month": (730.5, "m"), "quarter": (2191.5, "m"), "year": (8766.0, "m")}
_TIME_NAMES = {"second": "second", "seconds": "second", "minute": "minute", "minutes": "minute", "hour": "hour",
               "hours": "hour", "day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month",
               "months": "month", "year": "year", "years": "year", "sec": "second", "min": "minute", "hr": "hour",
               "wk": "week", "yr": "year"}
_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_CURRENCY_WORDS = {"usd": "USD", "dollar": "USD", "dollars": "USD", "eur": "EUR", "euro": "EUR", "euros": "EUR",
                   "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "chf": "CHF", "franc": "CHF", "francs": "CHF",
                   "jpy": "JPY", "yen": "JPY", "inr": "INR", "rupee": "INR", "rupees": "INR", "cad": "CAD",
                   "aud": "AUD", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "cny": "CNY", "yuan": "CNY"}
_PERCENT_WORDS = frozenset({"%", "percent", "pct"})
# Adjectives allowed between a number and its unit: "10 business days", "3 additional laptops".
_UNIT_QUALIFIERS = frozenset("business working work calendar consecutive additional extra more full further".split())
_A_UNIT_QUALIFIERS = _UNIT_QUALIFIERS | {"whole", "single", "full"}  # "a whole day"
_RATE_ADJECTIVES = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
                    "yearly": "year"}
_RATE_ADVERBS = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
                 "yearly": "year", "annually": "year"}
_RATE_WORDS = frozenset({"per", "a", "an", "each", "every"})
_BOUNDS_BEFORE: dict[tuple[str, ...], str] = {
    ("at", "least"): "ge", ("no", "less", "than"): "ge", ("not", "less", "than"): "ge", ("minimum", "of"): "ge",
    ("minimum",): "ge", ("no", "fewer", "than"): "ge",
    ("more", "than"): "gt", ("over",): "gt", ("above",): "gt", ("exceeding",): "gt", ("greater", "than"): "gt",
    ("up", "to"): "le", ("at", "most"): "le", ("no", "more", "than"): "le", ("not", "more", "than"): "le",
    ("maximum", "of"): "le", ("maximum",): "le", ("within",): "le", ("not", "exceed"): "le",
    ("not", "to", "exceed"): "le", ("not", "exceeding"): "le", ("max",): "le", ("capped", "at"): "le",
    ("limited", "to"): "le", ("a", "maximum", "of"): "le", ("a", "minimum", "of"): "ge", ("cap", "of"): "le",
    # "no later than 30 days" is a deadline (at most), not "later than" (more than)
    ("no", "later", "than"): "le", ("not", "later", "than"): "le", ("no", "earlier", "than"): "ge",
    ("not", "earlier", "than"): "ge", ("no", "sooner", "than"): "ge", ("not", "sooner", "than"): "ge",
    ("less", "than"): "lt", ("fewer", "than"): "lt", ("under",): "lt", ("below",): "lt",
    ("about",): "approx", ("around",): "approx", ("approximately",): "approx", ("roughly",): "approx",
    ("nearly",): "approx", ("almost",): "approx", ("approx",): "approx", ("some",): "approx",
}
_BOUNDS_BEFORE[("exceed",)] = _BOUNDS_BEFORE[("exceeds",)] = "gt"
for _word in "larger bigger longer greater higher older later faster heavier wider taller".split():
    _BOUNDS_BEFORE[(_word, "than")] = "gt"
for _word in "smaller shorter lower younger earlier slower lighter".split():
    _BOUNDS_BEFORE[(_word, "than")] = "lt"
_BOUNDS_AFTER: dict[tuple[str, str], str] = {
    ("or", "more"): "ge", ("or", "longer"): "ge", ("or", "above"): "ge", ("and", "above"): "ge", ("or", "over"): "ge",
    ("or", "higher"): "ge", ("and", "higher"): "ge", ("or", "later"): "ge", ("and", "over"): "ge",
    ("or", "less"): "le", ("or", "fewer"): "le", ("or", "shorter"): "le", ("or", "below"): "le",
    ("or", "lower"): "le", ("and", "below"): "le", ("or", "earlier"): "le", ("or", "under"): "le",
}
_BOUNDS_WORDS = frozenset(w for key in _BOUNDS_BEFORE for w in key) | {"or", "and"}
_MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
           "september": 9, "october": 10, "november": 11, "december": 12}
_MONTH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
                        "oct": 10, "nov": 11, "dec": 12}
_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_DATE_PREPOSITIONS = frozenset("in of on since until by from before after during early late mid end through till "
                               "between and or to".split())

# Near-exact equivalents in enterprise policy text; the first word of a group stands for it.
_SYNONYM_GROUPS = (
    "employee staff worker personnel colleague", "receive get obtain", "laptop notebook", "start begin commence",
    "finish end conclude", "buy purchase", "help assist assistance", "ask request", "manager supervisor",
    "company firm organization employer", "customer client", "big large", "quick fast rapid", "choose select pick",
    "show display", "reimburse refund repay", "salary wage compensation", "job role position",
    "vacation holiday leave", "email mail", "use utilize", "phone telephone", "car vehicle automobile",
    "doctor physician", "annual yearly", "approve authorize", "illness sickness sick ill", "travel trip",
    "policy rule guideline", "cost expense", "additional extra", "free complimentary", "delete remove erase",
    "keep retain", "child kid", "allowance stipend", "entire whole",
    "kilometre kilometer km", "mile mi", "kilogram kg",
)
# Pairs whose members contradict each other in the same slot.
_ANTONYM_PAIRS = (
    "before after", "earlier later", "early late", "more less", "more fewer", "higher lower", "above below",
    "minimum maximum", "increase decrease", "increase reduce", "include exclude", "accept reject", "approve reject",
    "approve deny", "enable disable", "open closed", "paid unpaid", "internal external", "public private",
    "permanent temporary", "full part", "first last", "domestic international", "upper lower",
    "remote onsite", "online offline", "true false", "same different", "refundable nonrefundable",
    "free paid", "free charged", "advance arrears", "inbound outbound", "upload download", "import export",
    "credit debit", "gross net", "fixed variable", "primary secondary", "buy sell", "deposit withdrawal",
    "weekday weekend", "upfront arrears",
)

# Polarity and modality categories of a clause.
_AFF, _NEG, _OBL, _PERM, _PROH, _NOTREQ = range(6)
_CATEGORY_NAMES = ("affirmative", "negated", "must", "may", "must not", "need not")
_NEGATIONS = frozenset("not no never none nor neither nobody nothing nowhere non".split())
# Predicates that say "not" after a copula ("receiving is paused", "IE 11 is unsupported"); before a noun they only
# describe it ("suspended accounts are deleted").
_NEGATIVE_PREDICATES = frozenset("paused suspended halted ceased discontinued unavailable unsupported excluded".split())
_COPULAS = frozenset("is are was were be been being remains remain stays stay".split())
_MODALS = {
    **dict.fromkeys("must shall should required require requires requiring mandatory obligatory compulsory need "
                    "needs needed necessary obliged obligated".split(), _OBL),
    **dict.fromkeys("may can could might allowed allow allows permitted permit permits permissible eligible entitled "
                    "able".split(), _PERM),
    **dict.fromkeys("prohibited prohibit prohibits forbidden forbid forbids banned disallowed ineligible unable "
                    "impermissible blocked".split(), _PROH),
    **dict.fromkeys("optional voluntary unnecessary".split(), _NOTREQ),
}
_AUXILIARIES = frozenset("must shall should may can could might".split())
_CONTRACTIONS = {"can't": _PERM, "couldn't": _PERM, "mustn't": _OBL, "shouldn't": _OBL, "shan't": _OBL,
                 "mightn't": _PERM, "needn't": _NOTREQ}
# "not"/"no" followed by these is a bound or a figure of speech, not a negation ("no later than", "not only").
# ("not even": an intensifier of a negation already there, "never ... not even with IT")
_NOT_NEGATING = frozenset("more less later earlier fewer exceed exceeding only just matter cost charge sooner "
                          "even".split())
_CLAUSE_WORDS = frozenset("but however whereas although though yet".split())  # not "unless": a condition
# After a comma these start a clause of their own: "permitted, provided it does not interfere" keeps the condition's
# negation out of the permission.
_AFTER_COMMA = frozenset("and or while which so provided providing if".split())
_PREDICATE_STARTS = frozenset("must may can cannot should shall might could will would never is are was were has have "
                              "had do does did can't don't doesn't won't mustn't shouldn't isn't aren't".split())
_CLAUSE_OR_COMMA = _CLAUSE_WORDS | _AFTER_COMMA
_SPLITTING = _CLAUSE_OR_COMMA | _PREDICATE_STARTS  # words that may start a clause
_PRONOUNS = frozenset("they it this these those he she".split())
_SUBORDINATORS = frozenset("if when unless although though while because since once after before whether where".split())

# (claim category, premise category) -> how strongly they conflict; -1: compatible but not entailed. "May" and
# "must" neither entail nor contradict each other (a stronger or weaker rule is not stated); "must" against
# "optional" or "need not", "may" against "must not", any polarity against its opposite, contradict.
_POLARITY: dict[tuple[int, int], float] = {
    (_AFF, _NEG): 1.0, (_AFF, _PROH): 1.0, (_AFF, _NOTREQ): -1,
    (_NEG, _AFF): 1.0, (_NEG, _OBL): 1.0, (_NEG, _PERM): 1.0, (_NEG, _NOTREQ): -1,
    (_OBL, _NEG): 1.0, (_OBL, _PERM): -1, (_OBL, _PROH): 1.0, (_OBL, _NOTREQ): 1.0,
    (_PERM, _NEG): 1.0, (_PERM, _OBL): -1, (_PERM, _PROH): 1.0,
    (_PROH, _AFF): 1.0, (_PROH, _OBL): 1.0, (_PROH, _PERM): 1.0, (_PROH, _NOTREQ): 0.6,
    (_NOTREQ, _AFF): -1, (_NOTREQ, _NEG): -1, (_NOTREQ, _OBL): 1.0, (_NOTREQ, _PROH): 0.6,
}


# ----------------------------------------------------------------------------------------------------- stemming

_CONSONANTS = frozenset("bcdfghjklmnpqrstvwxz")


def _has_vowel(s: str) -> bool:
    return any(c in "aeiouy" for c in s)


def _stem_uncached(w: str) -> str:
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) <= 2 or not w.isalpha():
        return w
    for brit, amer in (("isation", "ization"), ("ising", "izing"), ("ised", "ized"), ("ises", "izes"),
                       ("ise", "ize"), ("yse", "yze"), ("ysed", "yzed")):
        if w.endswith(brit) and len(w) > len(brit) + 1:
            w = w[: -len(brit)] + amer
            break
    n = len(w)
    if n > 3:  # inflection
        if w.endswith("ies") and n > 4:
            w = w[:-3] + "y"
        elif w.endswith("sses"):
            w = w[:-2]
        elif w.endswith("es") and (w[-3] in "sxz" or w.endswith(("ches", "shes"))):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        n = len(w)
        if n <= 3:
            pass
        elif w.endswith("ing") and n >= 5 and len(w) - 3 >= 2 and _has_vowel(w[:-3]):
            w = w[:-3]
        elif w.endswith("ied") and n > 4:
            w = w[:-3] + "y"
        elif w.endswith("eed"):
            if n > 5 and not w.endswith("ceed"):
                w = w[:-1]
        elif w.endswith("ed") and n >= 4 and _has_vowel(w[:-2]):
            w = w[:-2]
    n = len(w)
    if w.endswith("ly") and n > 5 and not w.endswith(("ply", "ily")):  # derivation
        w = w[:-2]
    elif w.endswith("ment") and n - 4 >= 4:
        w = w[:-4]
    if w.endswith("our") and len(w) > 4:
        w = w[:-3] + "or"
    elif w.endswith("tre") and len(w) > 4:
        w = w[:-3] + "ter"
    if w.endswith("e") and len(w) > 2:
        w = w[:-1]
    if len(w) > 2 and w[-1] == "y" and w[-2] in _CONSONANTS:
        w = w[:-1] + "i"
    if len(w) > 3 and w[-1] == w[-2] and w[-1] in _CONSONANTS:
        w = w[:-1]
    return w


_STEMS: dict[str, str] = {}


def _stem(word: str) -> str:
    """The light stem of a lower-case word, through the synonym table (memoised: vocabularies are small)."""
    s = _STEMS.get(word)
    if s is None:
        s = _stem_uncached(word)
        s = _SYNONYMS.get(s, s)
        if len(_STEMS) < 200_000:
            _STEMS[word] = s
    return s


# Verbs that carry little of a claim's meaning ("the money goes back to the card", "keep the receipt").
_LIGHT = frozenset(_stem_uncached(w) for w in "go goes went gone going come comes came coming keep keeps kept keeping "
                   "set sets setting put puts putting give gives gave given giving hold holds held run runs ran "
                   "show shows showed shown happen happens happened".split())
_SYNONYMS: dict[str, str] = {}
for _group in _SYNONYM_GROUPS:
    _words = _group.split()
    for _word in _words:
        _SYNONYMS[_stem_uncached(_word)] = _stem_uncached(_words[0])
_ANTONYMS: dict[str, frozenset[str]] = {}
for _pair in _ANTONYM_PAIRS:
    _a, _b = (_stem(w) for w in _pair.split())
    _ANTONYMS[_a] = _ANTONYMS.get(_a, frozenset()) | {_b}
    _ANTONYMS[_b] = _ANTONYMS.get(_b, frozenset()) | {_a}


# ----------------------------------------------------------------------------------------------------- analysis

# One token a match, the kind told by its first character afterwards (findall is much faster than finditer): a word
# (perhaps with digits: "Q3", "X200"), a number, date or clock time, a currency or percent sign, sentence-final
# punctuation, a blank line, a line break that ends a line (not one inside a wrapped sentence), a comma or colon.
_TOKEN = re.compile(
    r"[^\W\d_]+(?:['-][^\W\d_]+)*(?:-?\d[\w-]*)?"
    r"|(?=\d)(?:\d{4}-\d{1,2}-\d{1,2}(?!\d)"
    r"|\d{1,2}[./]\d{1,2}[./](?:\d{4}|\d{2})(?![\d/])"
    r"|\d{1,2}(?::[0-5]\d)?\s?[ap]\.?m\b\.?|\d{1,2}:[0-5]\d(?![\d:])"
    r"|(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:(?:st|nd|rd|th)(?![^\W\d_]))?)"
    r"|[%$€£¥]|[.!?;]+|\n[ \t\r]*\n|\n(?![a-z])|[,:]"
)
# Citation markers a claim may still carry: "[1]", "[2, 3]", "[doc:hr-7]", "[source: handbook]".
_MARKER = re.compile(r"\[(?:\d+(?:\s*[,;–-]\s*\d+)*|[\w.-]+:[^\]\n]{1,80})\]")
_PER_SLASH = re.compile(r"(?<=[^\W\d_])/(sec|second|min|minute|h|hr|hour|day|week|wk|month|mo|year|yr|night|person|"
                        r"user|seat|employee|head|item|order|unit|page|GB|MB|TB|km|kg|mile)\b")
_FRACTIONS = {"half": "50%", "a half": "50%", "one half": "50%", "a quarter": "25%", "one quarter": "25%",
              "a fifth": "20%", "one fifth": "20%", "a tenth": "10%", "one tenth": "10%", "three quarters": "75%"}
_FRACTION_HINT = re.compile(r"(?i)half|quarter|fifth|tenth")
_FRACTION = re.compile(r"\b(" + "|".join(sorted(_FRACTIONS, key=len, reverse=True)) + r") of\b"
                       r"(?!\s+(?:an?|the|each|every)\s+(?:second|minute|hour|day|week|fortnight|month|quarter|year)s?\b)",
                       re.IGNORECASE)  # ("a quarter of an hour" is 15 minutes: a fraction of a unit, read elsewhere)
_QUESTION = re.compile(r"(?:^|(?<=[.!?\n]))[^.!?\n]*\?")
_ISO = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")
_DMY = re.compile(r"\d{1,2}[./]\d{1,2}[./]\d+")
_ORDINAL = re.compile(r"([\d,.]+)(?:st|nd|rd|th)")
_QUARTER = re.compile(r"q([1-4])")
_FISCAL = re.compile(r"fy(\d{2}|\d{4})")
_DATE_SEPARATOR = re.compile(r"[./]")
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?\s?([ap])?")
_NAME_SEPARATOR = re.compile(r"[\s-]+")


class _Quantity(NamedTuple):
    dim: str  # "time", "percent", "money", "clock", "noun:STEM", "prev:STEM" or "bare"
    value: float  # in the dimension's base unit (hours for time)
    low: float  # the interval its bound gives
    high: float
    family: str  # time: "h" (hours to weeks) or "m" (months, years); money: the currency
    rate: str  # "per week": the denominator, or ""
    bound: str  # "eq", "ge", "gt", "le", "lt" or "approx"
    clause: int
    text: str
    number: float  # the number as written (before units and multipliers)
    unit: str = ""  # the stem of a time unit's word ("day")
    before: str = ""  # the stem of the content word before it ("version" 4.2)
    instance: bool = False  # "a $35,000 order", "an eight-hour flight": a case, not a rule's value
    soft: bool = False  # "a day", "every week": a unit word more than a stated number


class _Date(NamedTuple):
    year: int | None
    quarter: int | None
    month: int | None
    day: int | None
    weekday: int | None
    clause: int
    text: str
    soft_year: bool = False  # the year is the one the passage last named, not written with the date
    marker: str = ""  # the word before it: "after", "from", "through", ...
    span: tuple[float, float] | None = None  # "after 1 October", "24 to 31 December": the days it covers (see _spans)


class _Entity(NamedTuple):
    stems: tuple[str, ...]
    acronyms: tuple[str, ...]  # all-capital words, compared as written
    left: str  # the lower-case word before it, "" at the start of a clause
    right: str
    clause: int
    text: str


class _Clause(NamedTuple):
    core: frozenset[str]  # content stems, antonym words left out (what alignment counts)
    antonyms: frozenset[str]
    category: int
    sentence: int
    sequence: tuple[str, ...]  # its content stems in order (the first is usually the subject)
    conditional: bool  # a negation with "without"/"unless": "must not ... without X" also reads "requires X"
    condition: bool  # "without" or "unless" at all
    continues: bool  # it starts with a pronoun: it speaks of what the clause before it does
    scope: int = 0  # _UNIVERSAL ("any", "all", "no limit"), _RESTRICTIVE ("only"), _ABSOLUTE ("never"), or'ed
    agent: tuple[str, ...] = ()  # the content stems right after "by": who does it ("by the line manager")
    exception: frozenset[str] = frozenset()  # the stems after "unless" / "except" / "without": the case it lifts


@dataclass(slots=True, eq=False)
class _Text:
    """Everything the judge needs to know about one text (read only once built: texts are cached and shared).

    What only a premise needs (the index, per-clause stems and entities, quantities by unit and number) and what
    only acronyms need (``words``) is built on first use and kept: most texts are read as claims only, and every
    object a cached text holds is one more for the garbage collector to walk."""

    content: tuple[str, ...]  # unique content stems in order of appearance
    stems: frozenset[str]
    uppers: frozenset[str]  # all-capital words as written
    clauses: tuple[_Clause, ...]
    quantities: tuple[_Quantity, ...]
    dates: tuple[_Date, ...]
    entities: tuple[_Entity, ...]
    topics: tuple[int, ...]  # per sentence, the first sentence of its passage
    fiscal: bool  # it speaks of a fiscal year: quarters are not calendar quarters
    adjacent: frozenset[str]  # "STEM STEM": content words right next to each other (a modifier and its noun)
    source: str  # the text as read (normalised, markers taken out): for ``words``
    _index: dict[str, tuple[int, ...]] | None = field(default=None, init=False)
    _clause_stems: tuple[frozenset[str], ...] | None = field(default=None, init=False)
    _clause_entities: dict[int, tuple[_Entity, ...]] | None = field(default=None, init=False)
    _by_dim: dict[str, tuple[_Quantity, ...]] | None = field(default=None, init=False)
    _by_number: dict[float, tuple[_Quantity, ...]] | None = field(default=None, init=False)
    _words: tuple[str, ...] | None = field(default=None, init=False)
    _relations: tuple[dict[int, str], dict[int, str]] | None = field(default=None, init=False)
    _arithmetic: frozenset[float] | None = field(default=None, init=False)
    related: dict[str, str | None] = field(default_factory=dict, init=False)  # claim stem -> its premise stem

    @property
    def index(self) -> dict[str, tuple[int, ...]]:
        """A content stem, "~PREFIX" (its first six letters) or "STEM STEM" (adjacent in a clause's sequence) ->
        the clauses holding it, in order."""
        if self._index is None:
            lists: dict[str, list[int]] = {}
            for c, stems in enumerate(self.clause_stems):
                for s in stems:
                    lists.setdefault(s, []).append(c)
                    if len(s) >= 6:
                        lst = lists.setdefault("~" + s[:6], [])
                        if not lst or lst[-1] != c:
                            lst.append(c)
                for bigram in _bigrams(self.clauses[c].sequence):
                    lst = lists.setdefault(bigram, [])
                    if not lst or lst[-1] != c:
                        lst.append(c)
            # tuples, not lists: the garbage collector stops tracking a tuple of ints (a premise has hundreds)
            self._index = {key: tuple(lst) for key, lst in lists.items()}
        return self._index

    @property
    def clause_stems(self) -> tuple[frozenset[str], ...]:
        """Content stems per clause, antonyms included."""
        if self._clause_stems is None:
            self._clause_stems = tuple(c.core | c.antonyms if c.antonyms else c.core for c in self.clauses)
        return self._clause_stems

    @property
    def clause_entities(self) -> dict[int, tuple[_Entity, ...]]:
        if self._clause_entities is None:
            self._clause_entities = _by_clause(self.entities)
        return self._clause_entities

    @property
    def by_dim(self) -> dict[str, tuple[_Quantity, ...]]:
        if self._by_dim is None:
            self._by_dim = _index_by(self.quantities, lambda q: q.dim)
        return self._by_dim

    @property
    def by_number(self) -> dict[float, tuple[_Quantity, ...]]:
        if self._by_number is None:
            self._by_number = _index_by(self.quantities, lambda q: q.number)
        return self._by_number

    @property
    def written(self) -> frozenset[float]:
        """Its quantities' numbers as written."""
        return frozenset(q.number for q in self.quantities)

    @property
    def arithmetic(self) -> frozenset[float]:
        """The numbers its quantities give in one step of arithmetic: each number as written and as converted,
        by a calendar factor (days a week, months a year, ...), and the sum, difference, product and ratio of any
        two (of its first 16: a long passage's), to six decimals."""
        if self._arithmetic is None:
            numbers = tuple(dict.fromkeys(v for q in self.quantities for v in (q.number, q.value)
                                          if math.isfinite(v)))[:16]
            out = set()
            for i, a in enumerate(numbers):
                out.add(a)
                out.update(a * f for f in _FACTORS)
                out.update(a / f for f in _FACTORS)
                for b in numbers[i:]:
                    out.update((a + b, abs(a - b), a * b))
                    if b:
                        out.add(a / b)
                    if a:
                        out.add(b / a)
            self._arithmetic = frozenset(_rounded(v) for v in out)
        return self._arithmetic

    @property
    def relations(self) -> tuple[dict[int, str], dict[int, str]]:
        """Its content stems by their WordNet concepts, and by their broader concepts (the first stem of each)."""
        if self._relations is None:
            own: dict[int, str] = {}
            broader: dict[int, str] = {}
            for s in self.content:
                mine, wider = concepts(s)
                for c in mine:
                    own.setdefault(c, s)
                for c in wider:
                    broader.setdefault(c, s)
            self._relations = own, broader
        return self._relations

    @property
    def words(self) -> tuple[str, ...]:
        """Its lower-case words in order, hyphenated parts apart (for acronyms' expansions), read again from
        ``source``: only a text with an acronym the other text lacks needs them."""
        if self._words is None:
            self._words = tuple(part for tok in _TOKEN.findall(self.source) if tok[0].isalpha()
                                for part in tok.lower().split("-") if part)
        return self._words


class _Tokens:
    """The tokens of a text, as parallel lists, with their clause and sentence."""

    __slots__ = ("_next_comma", "clause", "comma", "consumed", "continued", "ends", "initial", "kind", "list_bound",
                 "low", "n", "ordinal", "orig", "sentences", "starts", "topics")

    def __init__(self, text: str) -> None:
        kind: list[str] = []
        orig: list[str] = []
        low: list[str] = []
        clause: list[int] = []
        initial: set[int] = set()  # words that start a sentence
        commas: set[int] = set()  # tokens right after a comma or colon
        ordinal: set[int] = set()  # numbers written as ordinals ("4th")
        sentences: list[int] = []  # per clause, its sentence
        starts: list[int] = []  # per clause, its first token
        continued: set[int] = set()  # clauses that go on with the subject of the one before
        topics = [0]  # per sentence: the first sentence of its passage (passages are separated by blank lines)
        c = s = 0
        clause_len = 0  # tokens in the current clause
        clause_first = ""  # its first word
        sentence_start = True
        comma = False
        splitting = _SPLITTING
        previous = ""
        kind_append, orig_append, low_append, clause_append = kind.append, orig.append, low.append, clause.append
        for tok in _TOKEN.findall(text):
            first = tok[0]
            if first.isalpha():
                w = tok.lower()
                if clause_len and w in splitting and ((w in _CLAUSE_WORDS or comma) if w in _CLAUSE_OR_COMMA
                                                      else (previous == "and" or previous == "or")):
                    c += 1  # "... every 90 days and cannot be reused": a second predicate has its own polarity
                    clause_len = 0
                    if w in _PREDICATE_STARTS:
                        continued.add(c)
                if not clause_len:
                    clause_first = w
                kind_append("word")
                if sentence_start:
                    initial.add(len(kind) - 1)
                    sentence_start = False
            elif first.isdigit():
                w = tok.lower()
                if ":" in w or w[-1] == "m" or w[-2:] == "m.":
                    kind.append("clock")
                elif _ISO.fullmatch(w):
                    kind.append("iso")
                elif _DMY.fullmatch(w):
                    kind.append("dmy")
                else:
                    m = _ORDINAL.fullmatch(w)
                    if m:
                        tok = w = m.group(1)
                        ordinal.add(len(kind))
                    kind.append("num")
            elif first in ".!?;\n":
                if clause_len:
                    c += 1
                    clause_len = 0
                if tok == ";":  # a new clause of the same sentence
                    comma = False
                    continue
                if not sentence_start:
                    s += 1
                    topics.append(topics[-1])
                if len(tok) > 1 and first == "\n":  # a blank line: a new passage
                    topics[-1] = s
                sentence_start = True
                comma = False
                continue
            elif first == "," or first == ":":
                if first == ":":
                    sentence_start = True
                if clause_len and clause_first in _SUBORDINATORS:
                    c += 1
                    clause_len = 0
                comma = True
                continue
            else:
                w = tok
                kind.append("sym")
            if comma:
                commas.add(len(orig))
                comma = False
            if not clause_len:
                sentences.append(s)
                starts.append(len(orig))
            orig_append(tok)
            low_append(w)
            previous = w
            clause_append(c)
            clause_len += 1
        self.kind, self.orig, self.low, self.clause = kind, orig, low, clause
        self.initial, self.comma, self.ordinal, self.continued = initial, commas, ordinal, continued
        self.sentences, self.topics = sentences, topics
        self.n = len(kind)
        self.list_bound: dict[int, str] = {}  # "and"/"or" after a bounded quantity -> its bound (for the next)
        self.consumed = bytearray(self.n)
        self.starts = starts  # where each clause's tokens start (clauses are consecutive runs of tokens) ...
        self.ends = [*starts[1:], self.n] if starts else []  # ... and end
        self._next_comma: list[int] | None = None

    def next_comma(self, k: int) -> int:
        """The first token at or after ``k`` that follows a comma (``n`` if none): a quantity's unit, rate or bound
        never reaches past it."""
        if self._next_comma is None:
            nxt, at = [self.n] * (self.n + 1), self.n
            for i in range(self.n - 1, -1, -1):
                if i in self.comma:
                    at = i
                nxt[i] = at
            self._next_comma = nxt
        return self._next_comma[k]


def _num_value(tok: str) -> float | None:
    try:
        return float(tok.replace(",", ""))
    except ValueError:  # a digit of another script that float() does not read
        return None


def _number_words(t: _Tokens, i: int) -> tuple[float, int] | None:
    """A number written in words starting at token ``i`` ("twenty-five", "one hundred and twenty"), and its end."""
    low = t.low
    total = 0.0
    current = 0.0
    j = i
    seen = False
    while j < t.n and t.kind[j] == "word":
        parts = low[j].split("-")
        if all(p in _NUMBER_WORDS for p in parts):
            current += sum(_NUMBER_WORDS[p] for p in parts)
        elif low[j] in _SCALES and seen:
            scale = _SCALES[low[j]]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        elif low[j] == "and" and seen and j + 1 < t.n and low[j + 1].split("-")[0] in _NUMBER_WORDS:
            j += 1
            continue
        else:
            break
        seen = True
        j += 1
    if not seen:
        return None
    return total + current, j


def _currency_before(t: _Tokens, start: int) -> bool:
    """Whether the number at token ``start`` follows its currency: a sign ("$500") or a code ("USD 500")."""
    return start > 0 and (t.kind[start - 1] == "sym" or (t.low[start - 1] in _CURRENCY_WORDS
                                                          and t.orig[start - 1].isupper()))


def _bound(t: _Tokens, start: int, after: int, n: int) -> str:
    """The bound on the quantity spanning tokens ``[start, after)`` (its clause ends at ``n``): "ge", "gt", "le",
    "lt", "approx" or "eq". Its words are marked consumed (they are part of the quantity, not content words). A
    negation right before a bound turns it round and is part of it ("cannot work more than 10 hours" is "at most 10
    hours", "must not be stacked more than two high" is "at most two")."""
    low = t.low
    if _currency_before(t, start):  # "over $500", "above USD 10,000": the bound comes before the currency
        start -= 1
    for size in (3, 2, 1):
        if start - size >= 0 and t.clause[start - size] == t.clause[start]:
            found = _BOUNDS_BEFORE.get(tuple(low[start - size:start]))
            if found:
                for k in range(start - size, start):
                    t.consumed[k] = 1
                negation = _negating(t, start - size)
                if negation >= 0 and found in _TURNED:
                    t.consumed[negation] = 1
                    return _TURNED[found]
                return found
    if after + 1 < n:
        found = _BOUNDS_AFTER.get((low[after], low[after + 1]))
        if found:
            t.consumed[after] = t.consumed[after + 1] = 1
            return found
    k = start - 1
    while k >= 0 and k >= start - 3 and low[k] in (":", "is", "of", "at", "="):
        k -= 1
    if k >= 0 and low[k] in _LIMIT_NOUNS and t.sentences[t.clause[k]] == t.sentences[t.clause[start]]:
        return _LIMIT_NOUNS[low[k]]  # "Single item limit: £2,000", "a cap of 10 hours"
    return "eq"


_LIMIT_NOUNS = {"limit": "le", "limits": "le", "cap": "le", "ceiling": "le", "maximum": "le", "max": "le",
                "minimum": "ge", "min": "ge", "floor": "ge"}
_TURNED = {"gt": "le", "ge": "lt", "lt": "ge", "le": "gt"}
_BOUND_NEGATIONS = frozenset("not never cannot can't mustn't don't doesn't won't shouldn't isn't aren't".split())
_NOT_BETWEEN = frozenset("for of on in at to with by from if when unless and or that which who".split())


def _negating(t: _Tokens, at: int) -> int:
    """The token of a negation that governs the bound starting at token ``at``: at most three words before it in
    the same clause, with no preposition or conjunction between ("not required for expenses under $25" negates
    the requirement, not the bound); -1 if none."""
    c = t.clause[at]
    for k in range(at - 1, max(at - 5, -1), -1):
        if t.clause[k] != c or t.kind[k] != "word" or t.low[k] in _NOT_BETWEEN or t.consumed[k]:
            return -1
        if t.low[k] in _BOUND_NEGATIONS:
            return k
    return -1


def _interval(value: float, bound: str) -> tuple[float, float]:
    eps = 1e-6 * max(1.0, abs(value))
    if bound == "ge":
        return value, math.inf
    if bound == "gt":
        return value + eps, math.inf
    if bound == "le":
        return -math.inf, value
    if bound == "lt":
        return -math.inf, value - eps
    if bound == "approx":
        return value * 0.9, value * 1.1
    return value, value


def _is_content(low: str) -> bool:
    return low not in _STOPWORDS and low not in _MODALS and low not in _NEGATIONS and len(low) > 1


def _quantity(t: _Tokens, start: int, end: int, value: float, currency: str) -> tuple[_Quantity, int]:
    """The quantity whose number spans tokens ``[start, end)``; returns it and the first token after it."""
    low, kind = t.low, t.kind
    number = value
    n = t.ends[t.clause[start]]  # a unit, a rate or a bound never reaches past a comma or into the next clause
    n = min(n, t.next_comma(end))
    j = end
    if j < n and low[j] in _MULTIPLIERS and (currency or low[j] not in ("m", "mn")):
        value *= _MULTIPLIERS[low[j]]
        j += 1
    u = j  # where the unit is looked for: past a range's second number ("25-30 days", "between 3 and 5 days")
    first = start - 1 if _currency_before(t, start) else start  # "$10,000", "USD 10,000": from the sign
    between = first > 0 and low[first - 1] == "between"
    ranged = False  # the first number of a range: its lower end
    skip_sign = 1 if u + 2 < n and kind[u + 1] == "sym" and kind[u + 2] == "num" else 0  # "$10,000 to $50,000"
    if u < n and kind[u] == "num":
        u += 1
        ranged = True
    elif u + 1 + skip_sign < n and low[u] in ("to", "and", "or") and kind[u + 1 + skip_sign] == "num":
        ranged = low[u] == "to" or (low[u] == "and" and between)
        u += 2 + skip_sign
    dim, family, scale, unit_end = "bare", "", 1.0, j
    shown = 0
    unit = ""
    if currency:
        dim, family = "money", currency
    elif u < n and low[u] in _PERCENT_WORDS:
        dim, unit_end = "percent", u + 1
    elif u + 1 < n and low[u] == "per" and low[u + 1] == "cent":
        dim, unit_end = "percent", u + 2
    elif u < n and low[u] in _CURRENCY_WORDS and (kind[u] != "word" or t.orig[u].isupper() or low[u][0] in "depfry"):
        dim, family, unit_end = "money", _CURRENCY_WORDS[low[u]], u + 1
    elif u < n and low[u] in ("cent", "cents"):
        dim, family, unit_end, scale = "money", "", u + 1, 0.01  # of whichever currency the passage uses
    else:
        w = u
        while w < n and low[w] in _A_UNIT_QUALIFIERS and w + 1 < n and kind[w + 1] == "word":
            w += 1
        for _ in range(2):  # "3 wellness days", "five unused vacation days"
            if w + 1 < n and low[w + 1] not in _TIME_UNITS and w + 2 < n and low[w + 2] in _TIME_UNITS \
                    and kind[w] == kind[w + 1] == "word" and _is_content(low[w]) and _is_content(low[w + 1]):
                w += 1
        if w + 1 < n and low[w + 1] in _TIME_UNITS and kind[w] == "word" and _is_content(low[w]):
            w += 1
        if w < n and kind[w] == "word" and low[w] in _TIME_UNITS:
            scale, family = _TIME_UNITS[low[w]]
            unit = _stem(low[w])
            if w > u and low[w - 1] in ("business", "working", "work") and family == "h" and scale == 24.0:
                family = "w"  # working days are not calendar days: comparable only with each other
            dim, unit_end = "time", w + 1
        elif w < n and kind[w] == "word" and _is_content(low[w]) and low[w] not in _BOUNDS_WORDS:
            dim, unit_end = "noun:" + _stem(low[w].split("-")[0]), j  # the noun stays a content word
            shown = w + 1
    p = start - 1
    while p >= 0 and (low[p] in _BOUNDS_WORDS or low[p] in _STOPWORDS) and t.clause[p] == t.clause[start]:
        p -= 1
    before = _stem(low[p]) if p >= 0 and kind[p] == "word" and t.clause[p] == t.clause[start] \
        and _is_content(low[p]) else ""
    if dim == "bare" and before:
        dim = "prev:" + before
    rate = ""
    r = unit_end
    if dim == "money" and r < n and low[r] in _TIME_NAMES:
        rate, r = _TIME_NAMES[low[r]], r + 1
    elif r + 1 < n and low[r] in _RATE_WORDS and kind[r + 1] == "word" and (dim != "bare" or low[r] == "per"):
        nxt = low[r + 1]
        if nxt in _A_UNIT_QUALIFIERS and r + 2 < n and low[r + 2] in _TIME_NAMES:  # "per calendar year"
            rate, r = _TIME_NAMES[low[r + 2]], r + 3
        elif nxt in _TIME_NAMES:
            rate, r = _TIME_NAMES[nxt], r + 2
        elif low[r] in ("per", "each", "every") and _is_content(nxt):
            rate, r = _stem(nxt), r + 2
            if r + 1 < n and low[r] == "per" and low[r + 1] in _TIME_NAMES:
                rate, r = _TIME_NAMES[low[r + 1]], r + 2  # "EUR 40 per user per month": a monthly rate
    if not rate and dim != "bare" and dim[:5] != "prev:":
        if r < n and low[r] in _RATE_ADVERBS:  # "25 days annually"
            rate, r = _RATE_ADVERBS[low[r]], r + 1
        else:
            for k in range(first - 1, max(t.starts[t.clause[start]], first - 12) - 1, -1):  # "a monthly quota of 200"
                if low[k] in _RATE_ADJECTIVES:
                    rate = _RATE_ADJECTIVES[low[k]]
                    break
    if dim == "noun:tim":  # "four times a day" is every 6 hours; "once a year", "twice a month"
        k = shown or unit_end
        if not rate and k + 1 < n and low[k] in _RATE_WORDS and low[k + 1] in _TIME_NAMES:
            rate, r = _TIME_NAMES[low[k + 1]], k + 2
        elif not rate and k < n and low[k] in _RATE_ADVERBS:
            rate, r = _RATE_ADVERBS[low[k]], k + 1
        if rate in _RATE_HOURS and value > 0:
            hours, family = _RATE_HOURS[rate]
            dim, value, rate, unit, unit_end = "time", hours / value, "", "", max(r, unit_end)
    if u > j:  # a range: its second number is read next, with the unit they share
        unit_end = r = j
        rate = ""
    for k in range(start, r if rate else unit_end):
        # (a noun between the number and its unit stays a content word: "200 overtime hours")
        if not (dim == "time" and end <= k < unit_end - 1 and kind[k] == "word" and low[k] not in _A_UNIT_QUALIFIERS
                and _is_content(low[k])):
            t.consumed[k] = 1
    for k in range(start, end):
        t.consumed[k] = 1
    bound = _bound(t, start, r, n)
    if bound == "eq" and first >= 2 and low[first - 1] in ("and", "or") and t.clause[first - 2] == t.clause[start]:
        bound = t.list_bound.get(first - 1, "eq")  # "capped at 10 hours per week and 150 hours per year"
    if bound != "eq" and r < n and low[r] in ("and", "or"):
        t.list_bound[r] = bound
    if bound == "eq":
        if ranged:
            bound = "ge"
        elif _range_end(t, first):
            bound = "le"
    value *= scale
    lo, hi = _interval(value, bound)
    text = " ".join(t.orig[first:max(r, unit_end, shown)])
    return _Quantity(dim, value, lo, hi, family, rate, bound, t.clause[start], text, number, unit, before,
                     _indefinite(t, first) or low[t.starts[t.clause[start]]] in _CASE_OPENERS), max(r, unit_end, end)


def _and_a_half(t: _Tokens, q: _Quantity, at: int) -> _Quantity:
    """``q`` ("a year") followed by "and a half" at token ``at``: half as much again."""
    for k in range(at, at + 3):
        t.consumed[k] = 1
    value = q.value * 1.5
    lo, hi = _interval(value, q.bound)
    return q._replace(value=value, low=lo, high=hi, number=q.number * 1.5, text=q.text + " and a half")


def _range_end(t: _Tokens, first: int) -> bool:
    """Whether the quantity starting at token ``first`` is the upper end of a range ("25-30", "5 to 10", "between
    $10,000 and $50,000")."""
    low, kind = t.low, t.kind
    k = first - 1
    if k < 0 or t.clause[k] != t.clause[first]:
        return False
    if kind[k] == "num":
        return True
    if low[k] in ("to", "and") and k > 0 and kind[k - 1] in ("num", "word"):
        m = k - 1
        while m >= 0 and kind[m] != "num" and k - m <= 3:  # past the first number's unit: "3 days to 5 days"
            m -= 1
        if m < 0 or kind[m] != "num":
            return False
        if low[k] == "to":
            return True
        m -= 1 if m > 0 and kind[m - 1] == "sym" else 0
        return m > 0 and low[m - 1] == "between"
    return False


# A clause that opens with these describes a case ("If only 94 % of lines arrive on time, ..."): its values are the
# case's, which a rule's threshold or range decides, not values the rule states.
_CASE_OPENERS = frozenset({"if", "when", "whenever", "once", "suppose", "say"})
_PRONOUN_ONE = frozenset("the this that which each any every another old new same other".split())
_CASE_LINKS = frozenset({"of", "with", "worth", "costing", "totalling", "totaling", "lasting"})


def _indefinite(t: _Tokens, first: int) -> bool:
    """Whether an indefinite article makes the quantity starting at token ``first`` a case rather than the value of
    a rule: right before it ("a $15 taxi ride", "an eight-hour flight") or before a few words and "of"/"with" ("a
    group of 12", "an expense report of €6,000", "an employee with eight months of service", "a gift worth
    $250")."""
    low, c = t.low, t.clause[first]
    k = first - 1
    if k >= 0 and t.clause[k] == c and low[k] in ("a", "an"):
        return True
    if k < 1 or t.clause[k] != c or low[k] not in _CASE_LINKS:
        return False
    for m in range(k - 1, max(k - 5, -1), -1):
        if t.clause[m] != c or t.kind[m] != "word" or m + 1 in t.comma or low[m] in _CUE_WORDS:
            return False
        if low[m] in ("a", "an"):
            return True
    return False



def _month_at(t: _Tokens, i: int) -> int | None:
    """The month named by token ``i``, if it names one here ("May" and "Mar" need a number or a preposition)."""
    low = t.low[i]
    orig = t.orig[i]
    if not orig[:1].isupper():
        return None
    month = _MONTHS.get(low)
    sure = month is not None and low != "may"
    if month is None:
        month = _MONTH_ABBREVIATIONS.get(low)
    if month is None:
        return None
    if sure:
        return month
    c = t.clause[i]
    near_number = (i + 1 < t.n and t.kind[i + 1] == "num" and t.clause[i + 1] == c) \
        or (i > 0 and t.kind[i - 1] == "num" and t.clause[i - 1] == c)
    if near_number or (low == "may" and i > 0 and t.low[i - 1] in _DATE_PREPOSITIONS and i not in t.initial):
        return month
    return None


def _year(tok: str) -> int | None:
    if len(tok) == 4 and tok.isdigit() and tok.isascii():
        year = int(tok)
        if 1900 <= year <= 2100:
            return year
    return None


def _day(t: _Tokens, k: int) -> int | None:
    """Token ``k`` as a day of the month (1 to 31, not yet read as something else), if it is one."""
    if 0 <= k < t.n and t.kind[k] == "num" and not t.consumed[k] and _year(t.orig[k]) is None:
        v = _num_value(t.orig[k])
        if v is not None and v.is_integer() and 1 <= v <= 31:
            return int(v)
    return None


_LIST_WORDS = frozenset({"and", "or", "to", "&", "through", "until", "till"})


def _date_word(t: _Tokens, i: int) -> tuple[list[_Date], int, int] | None:
    """The dates around the word at token ``i`` (several for "25 and 26 December"), their first and end token."""
    low = t.low[i]
    month = _month_at(t, i)
    c = t.clause[i]
    n = t.ends[c]
    if month is not None:
        start, end = i, i + 1
        day = year = None
        p = i - 1
        if p >= 1 and t.low[p] == "of":
            p -= 1
        if p >= 0 and t.kind[p] == "num" and not t.consumed[p] and t.clause[p] == c:
            v = _num_value(t.orig[p])
            if v is not None and v.is_integer() and 1 <= v <= 31:
                day, start = int(v), p
        days: list[int | None] = [day] if day is not None else []
        if day is not None:  # "25 and 26 December", "24-26 December": more days before
            k = start - 1
            while k >= 0 and t.clause[k] == c:
                if t.low[k] in _LIST_WORDS and k > 0 and _day(t, k - 1) is not None:
                    k -= 1
                d = _day(t, k)
                if d is None:
                    break
                days.insert(0, d)
                start = k
                k -= 1
        elif end < n and (d := _day(t, end)) is not None:
            days, end = [d], end + 1
            while end < n:  # "December 25 and 26"
                k = end + 1 if t.low[end] in _LIST_WORDS else end
                d = _day(t, k) if k < n else None
                if d is None:
                    break
                days.append(d)
                end = k + 1
        if end < n and t.kind[end] == "num":
            year = _year(t.orig[end])
            if year is not None:
                end += 1
        elif end + 1 < n and t.low[end] == "of" and t.kind[end + 1] == "num":
            year = _year(t.orig[end + 1])
            if year is not None:
                end += 2
        text = " ".join(t.orig[start:end])
        return [_Date(year, None, month, d, None, c, text) for d in (days or [None])], start, end
    weekday = _WEEKDAYS.get(low[:-1] if low.endswith("s") else low)
    if weekday is not None:
        return [_Date(None, None, None, None, weekday, c, t.orig[i])], i, i + 1
    m = _QUARTER.fullmatch(low)
    quarter = None
    end = i + 1
    if m:
        quarter = int(m.group(1))
    elif low in _ORDINALS and i + 1 < n and t.low[i + 1] == "quarter":
        quarter, end = _ORDINALS[low], i + 2
    elif low[-8:] == "-quarter" and low[:-8] in _ORDINALS:  # "third-quarter results"
        quarter = _ORDINALS[low[:-8]]
    if quarter is not None:
        year = None
        if end < n and t.kind[end] == "num":
            year = _year(t.orig[end])
            if year is not None:
                end += 1
        elif end + 1 < n and t.low[end] == "of" and t.kind[end + 1] == "num":
            year = _year(t.orig[end + 1])
            if year is not None:
                end += 2
        return [_Date(year, quarter, None, None, None, c, " ".join(t.orig[i:end]))], i, end
    m = _FISCAL.fullmatch(low)
    if m:
        digits = m.group(1)
        return [_Date(int(digits) if len(digits) == 4 else 2000 + int(digits), None, None, None, None, c,
                      t.orig[i])], i, i + 1
    if low in ("noon", "midday", "midnight"):
        return None
    return None


def _numeric_date(kind: str, tok: str, c: int) -> _Date | None:
    try:
        if kind == "iso":
            y, mo, d = (int(x) for x in tok.split("-"))
        else:
            a, b, y = (int(x) for x in _DATE_SEPARATOR.split(tok))
            if y < 100:
                y += 2000
            if a > 12 >= b:
                d, mo = a, b
            elif b > 12 >= a:
                mo, d = a, b
            elif "." in tok or a == b:
                d, mo = a, b  # day first with dots, the European way
            else:
                return _Date(y, None, None, None, None, c, tok)  # 03/04/2025: only the year is certain
        datetime.date(y, mo, d)
    except ValueError:
        return None
    return _Date(y, None, mo, d, None, c, tok)


def _clock(tok: str) -> float | None:
    m = _CLOCK.match(tok.lower())
    if m is None:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3) == "p" and hour < 12:
        hour += 12
    elif m.group(3) == "a" and hour == 12:
        hour = 0
    return hour * 60.0 + minute if hour <= 24 else None


_DETERMINERS = frozenset("the their its his her our your my this that each every a an".split())
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                  "eighth": 8, "ninth": 9, "tenth": 10}


def _ordinal(t: _Tokens, i: int, value: float) -> _Quantity | None:
    """An ordinal before a noun ("the fourth day", "the 3rd floor", "the third and fourth floors") as that noun's
    number ("day 4", "floor 3"): the noun stays a content word."""
    low, kind = t.low, t.kind
    if i == 0 or low[i - 1] not in _DETERMINERS:  # "employees first see ...": an adverb
        return None
    n = t.ends[t.clause[i]]
    j = i + 1
    while j + 1 < n and low[j] in ("and", "or") and (low[j + 1] in _ORDINAL_WORDS or j + 1 in t.ordinal):
        j += 2
    if j < n and kind[j] == "word" and _is_content(low[j]) and low[j] not in _ORDINAL_WORDS and j not in t.comma:
        noun = _stem(low[j].split("-")[0])
        t.consumed[i] = 1
        return _Quantity("prev:" + noun, value, value, value, "", "", "eq", t.clause[i], f"{t.orig[i]} {t.orig[j]}",
                         value, "", noun)
    return None


def _specifics(t: _Tokens) -> tuple[list[_Quantity], list[_Date]]:
    """Quantities and dates, left to right; their tokens are marked consumed (they are not content words)."""
    quantities: list[_Quantity] = []
    dates: list[_Date] = []
    kind, low, orig, n = t.kind, t.low, t.orig, t.n
    # Most words can neither be nor start a specific: skip them at once.
    candidate = [k != "word" or w in _TRIGGERS or "-" in w or w[:2] == "fy" for k, w in zip(kind, low, strict=True)]
    i = 0
    while i < n:
        if not candidate[i] or t.consumed[i]:
            i += 1
            continue
        k = kind[i]
        c = t.clause[i]
        if k in ("iso", "dmy"):
            d = _numeric_date(k, orig[i], c)
            if d is not None:
                dates.append(d._replace(marker=low[i - 1] if i > 0 else ""))
            t.consumed[i] = 1
            i += 1
        elif k == "clock":
            v = _clock(orig[i])
            if v is not None:
                quantities.append(_Quantity("clock", v, v, v, "", "", "eq", c, orig[i], v))
            t.consumed[i] = 1
            i += 1
        elif k == "sym":
            if orig[i] in _CURRENCY_SIGNS and i + 1 < n and kind[i + 1] == "num":
                v = _num_value(orig[i + 1])
                if v is not None:
                    q, nxt = _quantity(t, i + 1, i + 2, v, _CURRENCY_SIGNS[orig[i]])
                    quantities.append(q)
                    t.consumed[i] = 1
                    i = nxt
                    continue
            t.consumed[i] = 1
            i += 1
        elif k == "num":
            v = _num_value(orig[i])
            year = _year(orig[i])
            nxt_low = low[i + 1] if i + 1 < n else ""
            if v is None:
                t.consumed[i] = 1
                i += 1
            elif year is not None and not (i > 0 and orig[i - 1] in _CURRENCY_SIGNS) and nxt_low not in _NOT_YEAR:
                dates.append(_Date(year, None, None, None, None, c, orig[i]))
                t.consumed[i] = 1
                i += 1
            elif (i + 1 < n and kind[i + 1] == "word" and _month_at(t, i + 1) is not None) or (
                    i + 2 < n and (kind[i + 1] == "num" or low[i + 1] in _LIST_WORDS) and _day(t, i) is not None
                    and any(kind[k] == "word" and _month_at(t, k) is not None for k in range(i + 2, min(i + 4, n)))):
                i += 1  # "31 March", "25 and 26 December": the month word reads the days
            elif i in t.ordinal and (oq := _ordinal(t, i, v)) is not None:
                quantities.append(oq)
                i += 1
            else:
                currency = ""
                if i > 0 and kind[i - 1] == "word" and orig[i - 1].isupper() and low[i - 1] in _CURRENCY_WORDS:
                    currency = _CURRENCY_WORDS[low[i - 1]]
                    t.consumed[i - 1] = 1
                q, i = _quantity(t, i, i + 1, v, currency)
                quantities.append(q)
        elif k == "word":
            w = low[i]
            found = _date_word(t, i)
            if found is not None:
                more, start, end = found
                marker = low[start - 1] if start > 0 and t.clause[start - 1] == c else ""
                dates.extend(d._replace(marker=marker) for d in more)
                for j in range(start, end):
                    t.consumed[j] = 1
                i = end
                continue
            if low[i] in ("noon", "midday", "midnight"):
                v = 0.0 if low[i] == "midnight" else 720.0
                quantities.append(_Quantity("clock", v, v, v, "", "", "eq", c, orig[i], v))
                t.consumed[i] = 1
                i += 1
                continue
            if w in _ORDINAL_WORDS and (oq := _ordinal(t, i, float(_ORDINAL_WORDS[w]))) is not None:
                quantities.append(oq)
                i += 1
                continue
            parts = low[i].split("-")
            if len(parts) > 1 and parts[-1] in _TIME_UNITS and all(x in _NUMBER_WORDS for x in parts[:-1]):
                hours, family = _TIME_UNITS[parts[-1]]  # "two-day", "six-week"
                v = sum(_NUMBER_WORDS[x] for x in parts[:-1]) * hours
                quantities.append(_Quantity("time", v, v, v, family, "", "eq", c, orig[i],
                                            float(sum(_NUMBER_WORDS[x] for x in parts[:-1])), _stem(parts[-1]),
                                            instance=_indefinite(t, i)))
                t.consumed[i] = 1
                i += 1
                continue
            words = _number_words(t, i)
            if words is not None:
                v, end = words
                following = low[end] if end < n else ""
                after_noun = i > 0 and kind[i - 1] == "word" and _is_content(low[i - 1])  # "day one"
                if low[i] == "one" and end == i + 1 and following not in _TIME_UNITS \
                        and following not in _PERCENT_WORDS and ((i > 0 and low[i - 1] in _PRONOUN_ONE) or (
                            not after_noun and (following in ("of", "") or not _is_content(following)
                                                or end in t.comma))):
                    i += 1  # "one of", "no one", "the old one keeps working": not a count
                    continue
                if low[i] == "once" and not (i + 2 < n and low[i + 1] in _RATE_WORDS and low[i + 2] in _TIME_NAMES):
                    i += 1  # "once an employee has ...": a conjunction
                    continue
                if low[i] in ("once", "twice"):
                    q = _Quantity("noun:" + _stem("time"), v, v, v, "", "", "eq", c, orig[i], v)
                    t.consumed[i] = 1
                    r = i + 1
                    if r + 1 < n and low[r] in _RATE_WORDS and low[r + 1] in _TIME_NAMES:
                        hours, family = _RATE_HOURS[_TIME_NAMES[low[r + 1]]]
                        # "twice a year" is every six months
                        q = _Quantity("time", hours / v, hours / v, hours / v, family, "", "eq", c,
                                      " ".join(orig[i:r + 2]), v)
                        t.consumed[r] = t.consumed[r + 1] = 1
                        r += 2
                    quantities.append(q)
                    i = r
                    continue
                q, i = _quantity(t, i, end, v, "")
                quantities.append(q)
                continue
            if low[i] in ("a", "an") and i + 1 < n and not t.consumed[i + 1] and low[i + 1] != "second" and (
                    low[i + 1] in _TIME_UNITS or (low[i + 1] in _A_UNIT_QUALIFIERS and i + 2 < n
                                                  and low[i + 2] in _TIME_UNITS)) \
                    and not (i > 0 and (kind[i - 1] == "num" or low[i - 1] in _TIME_NAMES)):
                half = i > 0 and low[i - 1] == "half"
                q, i = _quantity(t, i - half, i + 1, 0.5 if half else 1.0, "")
                if not half and i + 2 < n and low[i] == "and" and low[i + 1] == "a" and low[i + 2] == "half":
                    q, i = _and_a_half(t, q, i), i + 3  # "a year and a half": 18 months, a stated number
                    quantities.append(q)
                    continue
                quantities.append(q._replace(soft=True, instance=False))
                continue
            if low[i] in ("a", "an") and i + 4 < n and low[i + 1] == "quarter" and low[i + 2] == "of" \
                    and low[i + 3] in ("a", "an") and low[i + 4] in _TIME_UNITS:
                q, i = _quantity(t, i, i + 4, 0.25, "")  # "a quarter of an hour": 15 minutes
                quantities.append(q)
                continue
            unit_at = i + 2 if i + 2 < n and low[i + 1] in _A_UNIT_QUALIFIERS else i + 1  # "per calendar year"
            if low[i] in ("every", "each", "per") and unit_at < n and low[unit_at] in _TIME_NAMES \
                    and not t.consumed[unit_at]:
                last = quantities[-1] if quantities else None
                if last is not None and last.clause == c and not last.rate and last.dim != "clock":
                    # "25 days of paid leave each year": the rate of the quantity before it
                    quantities[-1] = last._replace(rate=_TIME_NAMES[low[unit_at]],
                                                   text=" ".join([last.text, *orig[i:unit_at + 1]]))
                    for m in range(i, unit_at + 1):
                        t.consumed[m] = 1
                    i = unit_at + 1
                    continue
                if low[i] == "per":
                    i += 1
                    continue
                q, i = _quantity(t, i, i + 1, 1.0, "")  # "every week": once a week
                quantities.append(q._replace(soft=True, instance=False))
                continue
            i += 1
        else:
            i += 1
    for m in range(len(quantities) - 1):  # "from $5,000 to $50,000": each end knows the other
        a, b = quantities[m], quantities[m + 1]
        if a.bound == "ge" and b.bound == "le" and a.clause == b.clause and a.dim == b.dim and a.family == b.family \
                and a.rate == b.rate and a.low <= b.high:
            quantities[m] = a._replace(high=b.high)
            quantities[m + 1] = b._replace(low=a.low)
    return quantities, dates


_NOT_YEAR = frozenset(_TIME_UNITS) | _PERCENT_WORDS | frozenset(_CURRENCY_WORDS) | frozenset(_MULTIPLIERS)
_TRIGGERS = frozenset(
    [*_MONTHS, *_MONTH_ABBREVIATIONS, *_WEEKDAYS, *(d + "s" for d in _WEEKDAYS), *_ORDINAL_WORDS, *_NUMBER_WORDS,
     "q1", "q2", "q3", "q4", "noon", "midday", "midnight", "a", "an", "every", "each", "per"]
)


def _category(events: list[tuple[int, int, bool]], negations: list[int]) -> int:
    """The polarity/modality of a clause from its first modal ``(position, kind, is an auxiliary)`` and its
    negations' positions."""
    if not events:
        return _NEG if len(negations) % 2 else _AFF
    pos, modal, strong = events[0]
    if len(negations) % 2 == 0:  # none, or two that cancel
        return modal
    if modal == _OBL:
        # "must not" (a negation right after the modal) forbids; "not required", "does not need to", "requires no
        # password" do not oblige.
        return _PROH if strong and any(pos < p <= pos + 2 for p in negations) else _NOTREQ
    if modal == _PERM:
        return _PROH
    if modal == _PROH:
        return _PERM
    if modal == _NOTREQ:
        return _OBL
    return modal


# Scope of a clause's rule: universal ("any tool", "all flights", "no limit"), restrictive ("only approved tools"),
# absolute ("never"). They decide between a rule and its exceptions (see _polarity).
_UNIVERSAL, _RESTRICTIVE, _ABSOLUTE = 1, 2, 4
_SCOPE_WORDS = {**dict.fromkeys("any all every regardless unlimited always".split(), _UNIVERSAL),
                **dict.fromkeys("only solely exclusively".split(), _RESTRICTIVE)}
_LIMIT_WORDS = frozenset("limit limits cap caps maximum ceiling restriction restrictions".split())
_CUE_WORDS = _NEGATIONS | frozenset(_MODALS) | frozenset(_CONTRACTIONS) | {
    "without", "unless", "except", "until", "cannot", "need", "needs", "have", "has", "had"}
# "not permitted unless approved", "not reimbursable, except at approved client dinners", "cannot operate a forklift
# until certified": a negation with a condition that lifts it
_CONDITIONS = frozenset({"without", "unless", "except", "until"})
_DETERMINERS = frozenset("the a an your their its our his her this that each".split())
_WORD_INFO: dict[str, str | tuple[str | None, ...]] = {}
_NO_STEMS: frozenset[str] = frozenset()


def _word_info(w: str) -> str | tuple[str | None, ...]:
    """What a lower-case word is, memoised: a cue (the word itself, looked at with its neighbours) or the stems of
    its hyphenated parts: "" for a part that negates ("non-"), None for a stop word."""
    info: str | tuple[str | None, ...]
    if w in _CUE_WORDS or w.endswith("n't"):
        info = w
    else:
        parts = w.split("-") if "-" in w else [w]
        if len(parts) > 1 and len(parts[0]) == 1:
            parts = ["".join(parts)]  # e-mail
        info = tuple("" if part in _NEGATIONS else _stem(part) if part not in _STOPWORDS and len(part) >= 2 else None
                     for part in parts)
    if len(_WORD_INFO) < 200_000:
        _WORD_INFO[w] = info
    return info


def _table_rows(text: str) -> str:
    """Tables as clauses: a row of "label: value" cells is one clause a cell ("Starter: 100 requests/min | Pro:
    1,000 requests/min"); any other row is one clause, its label and values together ("Invoices | 10 years"), and
    a Markdown rule line ("|---|---|") nothing."""
    lines = []
    for line in text.split("\n"):
        if "|" in line:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if all(not cell.strip("-: ") for cell in cells):
                line = ""
            elif sum(":" in cell for cell in cells) >= 2:
                line = "; ".join(cells)
            else:
                line = " ".join(cells)
        lines.append(line)
    return "\n".join(lines)


@lru_cache(maxsize=8192)
def _analyse(text: str) -> _Text:
    """Read ``text`` once: tokens, clauses, content stems, quantities, dates, entities, polarity."""
    if not text.isascii():
        text = "\n".join(normalize(line, fold=False) for line in text.split("\n"))
    if "[" in text:
        text = _MARKER.sub(" ", text)
    if "|" in text:
        text = _table_rows(text)
    if "?" in text:  # a question states nothing ("Q: Can I expense a gym membership? A: No. ...")
        text = _QUESTION.sub(" ", text)
    if "/" in text:
        text = _PER_SLASH.sub(r" per \1", text)  # "1,000 requests/min" is 1,000 requests per minute
    if " of" in text and _FRACTION_HINT.search(text):
        text = _FRACTION.sub(lambda m: _FRACTIONS[m.group(1).lower()] + " of", text)  # "a tenth of" is 10 % of
    t = _Tokens(text)
    quantities, dates = _specifics(t)
    dates = _spans(_with_years(t, dates))
    kind, low, orig, clause_of, consumed = t.kind, t.low, t.orig, t.clause, t.consumed
    n_clauses = clause_of[-1] + 1 if t.n else 0
    sequences: list[list[str]] = [[] for _ in range(n_clauses)]
    events: list[list[tuple[int, int, bool]]] = [[] for _ in range(n_clauses)]
    negations: list[list[int]] = [[] for _ in range(n_clauses)]
    conditions = [0] * n_clauses
    scope = [0] * n_clauses
    uppers: set[str] = set()
    entities: list[_Entity] = []
    run: list[int] = []  # the tokens of the capitalised run being read
    adjacent: set[str] = set()  # "STEM STEM" of content words next to each other in the text
    last_word, last_stem = -2, ""
    skip = -1
    agents: list[list[str]] = [[] for _ in range(n_clauses)]  # per clause, the stems after "by" (who acts)
    in_exception = [False] * n_clauses  # past its "unless" / "except" / "without" / "until"
    exceptions: list[set[str]] = [set() for _ in range(n_clauses)]  # the stems after it
    agent_at = -2  # the last token of the agent being read
    for i in range(t.n):
        if kind[i] != "word":
            if run:
                _close_entity(t, run, entities)
                run = []
            continue
        w = low[i]
        c = clause_of[i]
        o = orig[i]
        capital = o[0].isupper() and not consumed[i]
        if capital and o.isupper() and o.isalpha():
            uppers.add(o)
        if run and (not capital or clause_of[run[-1]] != c):
            _close_entity(t, run, entities)
            run = []
        if capital and (w not in _STOPWORDS or (o.isupper() and len(o) > 1)) and w not in _MODALS and w != "i" \
                and w not in _NEGATIONS:
            run.append(i)
        if consumed[i] or i == skip:
            continue
        if w == "by":
            if not agents[c]:
                agent_at = i
            continue
        if agent_at == i - 1 and w in _DETERMINERS:
            agent_at = i
            continue
        if w in _NEGATIVE_PREDICATES and i > 0 and low[i - 1] in _COPULAS:
            negations[c].append(i)
            continue
        quantifier = _SCOPE_WORDS.get(w)
        if quantifier is not None:
            scope[c] |= quantifier
            if quantifier == _RESTRICTIVE:
                continue  # a cue, not a content word
        info = _WORD_INFO.get(w)
        if info is None:
            info = _word_info(w)
        if info.__class__ is tuple:  # a content word (the usual case): its parts' stems
            if agent_at == i - 1 and clause_of[agent_at] == c and any(info):
                agents[c].extend(st for st in info if st)
                agent_at = i
            for st in info:
                if st:
                    if last_word == i - 1 and last_stem:  # right after another content word: "VPN client"
                        adjacent.add(f"{last_stem} {st}")
                    last_word, last_stem = i, st
                    sequences[c].append(st)
                    if in_exception[c]:
                        exceptions[c].add(st)
                elif st is not None:  # "non-refundable"
                    negations[c].append(i)
            continue
        # polarity and modality cues
        if w in _NEGATIONS:
            nxt = low[i + 1] if i + 1 < t.n else ""
            if nxt in _LIMIT_WORDS and w == "no":  # "there is no limit on ...": a permission without bounds
                events[c].append((i, _PERM, False))
                scope[c] |= _UNIVERSAL
                continue
            if w == "no" and i > 0 and low[i - 1] in ("with", "at"):
                if low[i - 1] == "with":  # "an account with no access to ...": a condition, like "without"
                    conditions[c] += 1
                continue  # "at no extra charge": free, not a negation
            if w == "never":
                scope[c] |= _ABSOLUTE
            if nxt not in _NOT_NEGATING and not (w == "not" and i > 0 and low[i - 1] == "or"):
                negations[c].append(i)
            continue
        if w.endswith("n't"):
            if w in _CONTRACTIONS:
                events[c].append((i, _CONTRACTIONS[w], True))
                if w != "needn't":
                    negations[c].append(i + 1)
            elif not (i + 1 < t.n and low[i + 1] in _NOT_NEGATING):
                negations[c].append(i)
            continue
        if w in _CONDITIONS:
            conditions[c] += 1
            in_exception[c] = True
            continue
        if w == "cannot":
            events[c].append((i, _PERM, True))
            negations[c].append(i + 1)
            continue
        if w in ("need", "needs", "have", "has", "had") and i + 1 < t.n:
            nxt = low[i + 1]
            if nxt == "to" and w[0] == "h":
                events[c].append((i, _OBL, True))
                continue
            if nxt == "not" and w[0] == "n":
                events[c].append((i, _NOTREQ, True))
                skip = i + 1
                continue
        modal = _MODALS.get(w)
        if modal is not None:
            events[c].append((i, modal, w in _AUXILIARIES))
    if run:
        _close_entity(t, run, entities)
    content = tuple(dict.fromkeys(st for sequence in sequences for st in sequence))
    clause_stems = [set(sequence) for sequence in sequences]
    clause_antonyms = [{st for st in stems if st in _ANTONYMS} for stems in clause_stems]
    for c in range(1, n_clauses):
        if c in t.continued or (t.n and low[t.starts[c]] in _PRONOUNS):
            # "They expire every 90 days", "... and must be completed by June": the subject is the clause before's
            # (its first two content words stand for it)
            subject = sequences[c - 1][:2]
            clause_stems[c].update(subject)
            sequences[c][:0] = subject
    sentence_of = t.sentences
    for c in range(1, n_clauses):
        if not clause_stems[c] and (events[c] or negations[c]) and sentence_of[c] == sentence_of[c - 1]:
            # "expected but not mandatory": a clause of cues only qualifies the one before it
            events[c - 1] += events[c]
            negations[c - 1] += negations[c]
            conditions[c - 1] += conditions[c]
            scope[c - 1] |= scope[c]
            events[c], negations[c], conditions[c], scope[c] = [], [], 0, 0
    categories = [_category(events[c], negations[c]) for c in range(n_clauses)]
    clauses: list[_Clause] = []
    for c in range(n_clauses):
        antonyms = clause_antonyms[c]  # mostly none: then the shared empty set (one object fewer to keep)
        clauses.append(_Clause(frozenset(clause_stems[c] - antonyms) if antonyms else frozenset(clause_stems[c]),
                               frozenset(antonyms) if antonyms else _NO_STEMS, categories[c], sentence_of[c],
                               tuple(sequences[c]), bool(conditions[c]) and categories[c] in (_NEG, _PROH),
                               bool(conditions[c]), t.n > 0 and c > 0 and low[t.starts[c]] in _PRONOUNS, scope[c],
                               tuple(agents[c]), frozenset(exceptions[c]) if exceptions[c] else _NO_STEMS))
    return _Text(
        content=content, stems=frozenset(content), uppers=frozenset(uppers) if uppers else _NO_STEMS,
        clauses=tuple(clauses), quantities=tuple(quantities), dates=tuple(dates), entities=tuple(entities),
        topics=tuple(t.topics),
        fiscal="fiscal" in low or ("fy" in text.lower() and any(w[:2] == "fy" and w[2:].isdigit() for w in low)),
        adjacent=frozenset(adjacent) if adjacent else _NO_STEMS, source=text,
    )


def _with_years(t: _Tokens, dates: list[_Date]) -> list[_Date]:
    """Dates without a year take the one the passage last named ("In 2026 the office moves ... it opens on 16
    March"), or failing that the next one in the same sentence; marked as such (it never contradicts)."""
    if not any(d.year is not None for d in dates):
        return dates
    out = []
    last: dict[int, int] = {}  # passage (its first sentence) -> the year last named in it
    for k, d in enumerate(dates):
        sentence = t.sentences[d.clause]
        passage = t.topics[sentence] if sentence < len(t.topics) else 0
        if d.year is not None:
            last[passage] = d.year
        elif d.month is not None or d.quarter is not None:
            year = last.get(passage)
            if year is None:
                year = next((e.year for e in dates[k + 1:] if e.year is not None
                             and t.sentences[e.clause] == sentence), None)
            if year is not None:
                d = d._replace(year=year, soft_year=True)
        out.append(d)
    return out


_AFTER_WORDS = frozenset({"after", "since", "from"})
_BEFORE_WORDS = frozenset({"before", "prior"})
_RANGE_ENDS = frozenset({"through", "thru", "to", "until", "till", "and"})
_NOT_A_DAY = _AFTER_WORDS | _BEFORE_WORDS | _RANGE_ENDS | {"by"}  # a claim date with these is a bound or deadline


_MAX_DATES = 12
_MAX_VALUES = 64  # the passage's quantities and dates calendar arithmetic looks at (a long passage's first)


def _calendar_day(d: _Date, year: int | None) -> datetime.date | None:
    y = d.year if d.year is not None else year
    if y is None or d.month is None or d.day is None or d.span is not None:
        return None
    try:
        return datetime.date(y, d.month, d.day)
    except ValueError:
        return None


def _durations(p: _Text, about: frozenset[str]) -> tuple[set[int], set[int], set[int]]:
    """The durations of the passage's clauses that speak of ``about`` (the claim's words), as whole calendar days,
    working days and months."""
    days: set[int] = set()
    working: set[int] = set()
    months: set[int] = set()
    for q in p.quantities[:_MAX_VALUES]:
        if q.dim != "time" or q.rate or not math.isfinite(q.value) or q.value <= 0 \
                or not p.clause_stems[q.clause] & about:
            continue
        if q.family == "w":
            working.add(round(q.value / 24))
        elif q.family == "h" and abs(q.value / 24 - round(q.value / 24)) < 1e-9:
            days.add(round(q.value / 24))
        elif q.family == "m":
            n = q.value / 730.5
            if abs(n - round(n)) < 1e-6:
                months.add(round(n))
    return days, working, months


def _working_days(a: datetime.date, b: datetime.date) -> int:
    """Working days after ``a`` up to and including ``b`` (Monday to Friday; no public holidays)."""
    days = (b - a).days
    weeks, rest = divmod(days, 7)
    start = a.weekday()
    return weeks * 5 + sum((start + k) % 7 < 5 for k in range(1, rest + 1))


def _months_apart(a: datetime.date, b: datetime.date) -> int | None:
    if a.day != b.day:
        return None
    return (b.year - a.year) * 12 + b.month - a.month


def _derived_dates(claim: _Text, p: _Text) -> set[int]:
    """The claim's dates that the passage gives by calendar arithmetic: two of the claim's dates a duration of the
    passage apart ("delivered on 1 June ... returned by 1 July" with "within 30 days"; "resolved on Friday 27
    February ... due by Friday 6 March" with "within 5 business days"), or one of the passage's dates plus one of its
    durations ("removed 12 months after general availability on 3 March 2026": March 2027)."""
    dates = claim.dates[:_MAX_DATES]  # (a claim is a sentence: more dates than this is not one to read)
    if not dates or not p.quantities:
        return set()
    days, working, months = _durations(p, claim.stems)
    if not (days or working or months):
        return set()
    year = next((d.year for d in dates if d.year is not None), None)
    if year is None:
        year = next((d.year for d in p.dates if d.year is not None), None)
    mine = [_calendar_day(d, year) for d in dates]
    out: set[int] = set()

    def apart(a: datetime.date, b: datetime.date) -> bool:
        return (b - a).days in days or _working_days(a, b) in working or _months_apart(a, b) in months

    for i, a in enumerate(mine):
        for j, b in enumerate(mine):
            if a is not None and b is not None and a < b and apart(a, b):
                out.update((i, j))
    for i, d in enumerate(dates):  # "Friday" of "Friday 6 March 2026", when that is a Friday
        if d.weekday is not None and d.month is None and any(
                dates[j].clause == d.clause and mine[j] is not None and mine[j].weekday() == d.weekday  # type: ignore[union-attr]
                for j in out):
            out.add(i)
    theirs = [x for x in (_calendar_day(d, year) for d in p.dates[:_MAX_VALUES]) if x is not None]
    for i, d in enumerate(dates):
        if i in out or d.month is None:
            continue
        for base in theirs:
            for n in months:
                m = base.month - 1 + n
                y, m = base.year + m // 12, m % 12 + 1
                if d.month == m and (d.year is None or d.year == y) and d.day in (None, base.day):
                    out.add(i)
            for n in days:
                target = base + datetime.timedelta(days=n)
                if d.month == target.month and d.day == target.day and (d.year is None or d.year == target.year):
                    out.add(i)
    return out


def _day_number(d: _Date) -> float:
    return d.month * 32.0 + d.day if d.month is not None and d.day is not None else -1.0


def _spans(dates: list[_Date]) -> list[_Date]:
    """Dates that bound an interval of days: "after 1 October" (open), "before 1 May", and a range "from 24 December
    through 1 January" (both ends, wrapping at the year's end). A day inside it is stated by it ("closed on 27
    December"); a deadline ("by", "until" alone) is not an interval here: another deadline contradicts it."""
    out = list(dates)
    for k, d in enumerate(out):
        x = _day_number(d)
        if x < 0 or d.span is not None:
            continue
        nxt = out[k + 1] if k + 1 < len(out) else None
        if nxt is not None and nxt.clause == d.clause and _day_number(nxt) >= 0 and nxt.marker in _RANGE_ENDS \
                and (d.marker in ("from", "between") or nxt.marker in ("through", "thru")):
            y = _day_number(nxt)
            span = (x, y if y >= x else y + 12 * 32)
            out[k] = d._replace(span=span)
            out[k + 1] = nxt._replace(span=span)
        elif d.marker in _AFTER_WORDS and d.marker != "from":
            out[k] = d._replace(span=(x + 0.5, math.inf))
        elif d.marker in _BEFORE_WORDS:
            out[k] = d._replace(span=(-math.inf, x - 0.5))
    return out


def _index_by(quantities: Sequence[_Quantity], key: Callable[[_Quantity], _K]) -> dict[_K, tuple[_Quantity, ...]]:
    out: dict[_K, list[_Quantity]] = {}
    for q in quantities:
        out.setdefault(key(q), []).append(q)
    return {k: tuple(v) for k, v in out.items()}


def _bigrams(sequence: Sequence[str]) -> set[str]:
    return {f"{a} {b}" for a, b in pairwise(sequence) if a != b}


def _by_clause(items: Sequence[_Quantity] | Sequence[_Date] | Sequence[_Entity]) -> dict:  # type: ignore[type-arg]
    out: dict[int, list] = {}  # type: ignore[type-arg]
    for item in items:
        out.setdefault(item.clause, []).append(item)
    return {k: tuple(v) for k, v in out.items()}


def _close_entity(t: _Tokens, run: list[int], out: list[_Entity]) -> None:
    """Keep a run of capitalised words as an entity unless it is one word that only starts its sentence."""
    i = run[0]
    o = t.orig[i]
    if i in t.initial and not (o.isupper() and len(o) > 1) and not any(ch.isupper() or ch.isdigit() for ch in o[1:]):
        run = run[1:]  # a sentence's first word is capitalised whatever it is
        if not run:
            return
    words = [t.low[i] for i in run]
    stems = tuple(_stem(p) for w in words for p in w.split("-") if p)
    # all-capital words (and single letters: "Plan B") are compared as written
    acronyms = tuple(t.orig[i] for i in run if t.orig[i].isupper() and t.orig[i].isalpha())
    first, last = run[0], run[-1]
    c = t.clause[first]
    left = t.low[first - 1] if first > 0 and t.clause[first - 1] == c else ""
    right = t.low[last + 1] if last + 1 < t.n and t.clause[last + 1] == c else ""
    out.append(_Entity(stems, acronyms, left, right, c, " ".join(t.orig[i] for i in run)))


# ----------------------------------------------------------------------------------------------------- deciding


class Conflict(NamedTuple):
    """A specific of the claim that the aligned part of the premise contradicts."""

    kind: str  # "number", "date", "entity", "polarity", "antonym", "agent"
    claim: str
    premise: str
    strength: float  # 0..1: how well the two are aligned


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why the judge said what it said about one pair (for debugging and tests; never recorded with results)."""

    probabilities: Probabilities
    coverage: float  # share of the claim's content words the premise has (or a WordNet relation, a light verb, ...)
    local_coverage: float  # ... in the best stretch of three sentences
    conflicts: tuple[Conflict, ...]
    added: tuple[str, ...]  # specifics of the claim the premise does not state ("number: 30 days")
    weak: tuple[str, ...]  # compatible but not entailed ("may" for "must", a looser bound)


def _strength(fraction: float) -> float:
    """How much a conflict counts, from the share of the claim's content words its premise clause holds."""
    return min(1.0, max(0.0, (fraction - 0.25) / 0.45))


def _ranked(
    premise: _Text, stems: Sequence[str], sequences: Sequence[Sequence[str]], bonus: dict[int, float]
) -> list[tuple[float, list[int]]]:
    """Premise clauses holding any of ``stems``, grouped by equal score, best first. A clause scores a point per
    stem (three quarters for a shared prefix), and half a point per pair of the claim's adjacent content words it has
    adjacent too and for starting with the claim's first content word (its subject, usually): ties between clauses
    that share the same words are common, and these break them the way a reader would. A quantity or date that
    states one of the claim's is a point too (half for a bare number): specifics are what tell clauses apart."""
    scores: dict[int, float] = {}
    index = premise.index
    pstems = premise.stems
    for s in stems:
        if s in pstems:
            key, w = s, 1.0
        elif len(s) >= 6 and "~" + s[:6] in index:
            key, w = "~" + s[:6], 0.75
        elif (related := _related(s, premise)) is not None:
            key, w = related, _RELATED
        else:
            continue
        for c in index.get(key, ()):
            scores[c] = scores.get(c, 0.0) + w
    for sequence in sequences:
        for bigram in _bigrams(sequence):
            for c in index.get(bigram, ()):
                scores[c] += 0.5
    for c, extra in bonus.items():
        scores[c] = scores.get(c, 0.0) + extra
    if sequences and sequences[0]:
        subject = sequences[0][0]
        clauses = premise.clauses
        for c in scores:
            if clauses[c].sequence[:1] == (subject,):
                scores[c] += 0.5
    groups: dict[float, list[int]] = {}
    for c, score in scores.items():
        groups.setdefault(score, []).append(c)
    return sorted(groups.items(), reverse=True)


def _quantity_relation(c: _Quantity, p: _Quantity) -> int | None:
    """2: the premise's quantity entails the claim's; 1: compatible; 0: they conflict; None: not comparable."""
    if c.dim != p.dim and (c.dim == "bare" or p.dim == "bare" or c.dim[:5] == "prev:" or p.dim[:5] == "prev:"):
        # No unit, or only the word before it ("version 4.2"): the same number as written is all that says anything.
        return 2 if abs(c.number - p.number) <= 1e-9 * max(1.0, abs(c.number)) else None
    if c.dim == "bare":
        return 2 if abs(c.number - p.number) <= 1e-9 * max(1.0, abs(c.number)) else None
    if c.dim != p.dim:
        return None
    if c.dim == "money" and c.family != p.family and c.family and p.family:
        return 0
    if bool(c.rate) != bool(p.rate) and ((c.unit and c.unit == _stem(p.rate or "-"))
                                         or (p.unit and p.unit == _stem(c.rate or "-"))):
        return None  # "ten years" of service is not "20 days per year": a duration against a rate's period
    rate_tol = 1e-9
    if c.rate and p.rate and c.rate != p.rate:
        if c.rate not in _RATE_HOURS or p.rate not in _RATE_HOURS:
            return 0
        # "€40 per month" is "€480 a year": compare per hour (exactly within a family, to 5 % across)
        hc, fc = _RATE_HOURS[c.rate]
        hp, fp = _RATE_HOURS[p.rate]
        c = c._replace(value=c.value / hc, low=c.low / hc, high=c.high / hc, rate="hour")
        p = p._replace(value=p.value / hp, low=p.low / hp, high=p.high / hp, rate="hour")
        rate_tol = 1e-9 if fc == fp else 0.05
    if c.dim == "time" and c.family != p.family and "w" in (c.family, p.family):
        return None
    tol = max(0.1 if c.dim == "time" and c.family != p.family else 1e-9, rate_tol)
    same = abs(c.value - p.value) <= tol * max(abs(c.value), abs(p.value), 1e-12)  # relative: rates per hour are small
    cb, pb = c.bound[0], p.bound[0]
    if c.instance and c.bound == "eq" and pb in "gl" and not (c.rate and p.rate and c.rate != p.rate):
        # A case ("a $35,000 order", "if 94 % arrive") against a rule's threshold: inside it the rule applies;
        # outside, the passage does not say.
        inside = p.low - tol * abs(p.low) <= c.value <= p.high + tol * abs(p.high)
        return 2 if inside else None
    if cb == pb and cb in "gl":
        return 2 if same and (c.rate or not p.rate) else 1 if same else 0  # two limits: "up to 5" is not "up to 10"
    if same and cb in "gl" and pb in "gl":
        return 0  # "at least 5" against "at most 5"
    if same and cb != pb and cb in "gl" and c.bound in ("gt", "lt"):
        return 1  # "more than 400" against "400": a near miss, not a conflict
    lo = c.low * (1 - tol) if c.low > 0 else c.low * (1 + tol)
    hi = c.high * (1 + tol)
    if p.high < lo or p.low > hi:
        return 0
    if c.rate and not p.rate:
        return 1
    if cb in "gl" and p.bound == "eq" and not same and not p.instance:
        # "up to £2,500" against "the most we pay is £1,500": a limit restated with another value
        return 0
    if lo <= p.low and p.high <= hi:
        return 2
    if c.bound == "eq" and p.bound[0] in "gl" and same:
        return 2  # "up to 5 days" states "5 days" (as a limit)
    return 1


def _date_relation(c: _Date, p: _Date, calendar: bool = True) -> int | None:
    """As :func:`_quantity_relation`, for dates; None when they share no component (a weekday and a year). With
    ``calendar`` false (a fiscal year is in play), months say nothing about quarters. A year one of them only took
    from the text around it never contradicts."""
    if p.span is not None and c.span is None and c.marker not in _NOT_A_DAY \
            and _day_number(c) >= 0 and (c.year is None or p.year is None or c.year == p.year):
        # A day against an interval of days: inside it, stated; outside, the passage does not say.
        x = _day_number(c)
        if x < p.span[0]:
            x += 12 * 32
        return 2 if p.span[0] <= x <= p.span[1] else None
    quarter = p.quarter
    if quarter is None and p.month and calendar:
        quarter = (p.month - 1) // 3 + 1
    weekday = p.weekday
    if weekday is None and p.year and p.month and p.day and not p.soft_year:
        weekday = datetime.date(p.year, p.month, p.day).weekday()
    shared = False
    entailed = True
    soft = c.soft_year or p.soft_year
    for k, (cv, pv) in enumerate(((c.year, p.year), (c.quarter, quarter), (c.month, p.month), (c.day, p.day),
                                  (c.weekday, weekday))):
        if cv is None:
            continue
        if pv is None or (k == 0 and soft and cv != pv):
            entailed = False
            continue
        shared = True
        if cv != pv:
            return 0
    if c.month is not None and p.month is None and quarter is not None and calendar:
        shared = True
        if (c.month - 1) // 3 + 1 != quarter:
            return 0
    if not shared:
        return None
    return 2 if entailed else 1


def _bare_relation(c: _Quantity, p: _Quantity, premise: _Text) -> int | None:
    """:func:`_quantity_relation`, except that a number without a unit in the premise ("Annual leave: 25") states
    a claim's quantity only when its clause names the unit ("days"): "24/7" is not "24 hours"; and that the same
    number after the same word states it whatever follows ("Version 4.2 adds" and "Version 4.2 of the app")."""
    r = _quantity_relation(c, p)
    if r == 2 and (p.dim == "bare" or p.dim[:5] == "prev:") and c.dim != p.dim and c.dim != "bare" \
            and c.dim[:5] != "prev:":
        unit = c.unit or (c.dim[5:] if c.dim[:5] == "noun:" else "")
        if not unit or unit not in premise.clause_stems[p.clause]:
            r = None
    if r is None and c.before and c.before == p.before and c.number == p.number \
            and (c.dim == "bare" or c.dim[:5] in ("noun:", "prev:")):
        r = 2
    return r


def _candidates(q: _Quantity, premise: _Text) -> list[_Quantity]:
    """The premise quantities that may relate to ``q``: of its dimension, or with the same number as written (at
    most 256 of each: a passage of thousands of numbers is read on its first ones, in linear time)."""
    same = premise.by_dim.get(q.dim, ())[:256]
    numbers = premise.by_number.get(q.number, ())[:256]
    if not numbers:
        return list(same)
    return list(same) + [o for o in numbers if o.dim != q.dim]


def _expansion(acronym: str, words: Sequence[str]) -> int:
    """Where in ``words`` (lower-case, hyphenated parts apart) a run of words starts whose initials spell
    ``acronym`` ("multi factor authentication" for MFA, "paid time off" for PTO); -1 if none."""
    a = acronym.lower()
    size = len(a)
    for i in range(len(words) - size + 1):
        if words[i][0] == a[0] and all(words[i + k][0] == a[k] for k in range(1, size)):
            return i
    return -1


def _abbreviates(acronym: str, name: str) -> bool:
    """Whether ``acronym`` ("NOC") spells the initials of ``name`` ("Network Operations Center")."""
    words = [w for w in _NAME_SEPARATOR.split(name) if w]
    return acronym.isupper() and len(words) == len(acronym) > 1 and all(
        w[0].upper() == a for w, a in zip(words, acronym, strict=True))


def _acronym_keys(premise: _Text, claim: _Text) -> dict[str, str]:
    """Claim content stems the premise states as an acronym or its expansion, each with the premise's index key that
    holds it: the claim's "SOC" for the premise's "Security Operations Center", and the claim's "multi-factor
    authentication" for the premise's "MFA"."""
    out: dict[str, str] = {}
    index = premise.index
    for a in claim.uppers - premise.uppers:
        if 2 <= len(a) <= 5 and (i := _expansion(a, premise.words)) >= 0:
            key = next((st for w in premise.words[i:i + len(a)] if (st := _stem(w)) in index), None)
            if key is not None:
                out[_stem(a.lower())] = key
    for a in premise.uppers - claim.uppers:
        key = _stem(a.lower())
        if 2 <= len(a) <= 5 and key in index and (i := _expansion(a, claim.words)) >= 0:
            for w in claim.words[i:i + len(a)]:
                out.setdefault(_stem(w), key)
    return out


_RELATED = 0.85  # the credit of a word WordNet relates to one of the premise's


def _related(s: str, p: _Text) -> str | None:
    """The premise stem that says what claim stem ``s`` says in other words (WordNet): a synonym or derivation, a
    narrower word (the premise's "laptop" for the claim's "computer"), or failing those a broader one ("visitor"
    for "guest": real answers generalise and specialise freely, and the other checks catch a changed specific)."""
    memo = p.related
    if s in memo:
        return memo[s]
    memo[s] = found = _relate(s, p)
    return found


def _relate(s: str, p: _Text) -> str | None:
    own, broader = concepts(s)
    if not own and not broader:
        return None
    p_own, p_broader = p.relations
    for c in own:
        if c in p_own:
            return p_own[c]
    for c in own:
        if c in p_broader:
            return p_broader[c]
    for c in broader:
        if c in p_own:
            return p_own[c]
    return None


_FACTORS = (7.0, 12.0, 24.0, 52.0, 60.0, 100.0, 365.0)  # days a week, months a year, ...


def _derivable(x: float, p: _Text) -> bool:
    """Whether ``x`` is one of the premise's numbers, or one step of arithmetic from them."""
    return _rounded(x) in p.arithmetic


def _rounded(v: float) -> float:
    return round(v, 6)


def _entity_present(e: _Entity, t: _Text) -> bool:
    """Whether text ``t`` names entity ``e``: all its words (acronyms as written)."""
    if not all(a in t.uppers for a in e.acronyms):
        return False
    acronyms = {_stem(a.lower()) for a in e.acronyms}
    return all(s in t.stems or s in acronyms for s in e.stems)


class _Decision:
    """The comparison of one claim with one premise."""

    def __init__(self, premise: _Text, claim: _Text) -> None:
        self.p, self.h = premise, claim
        self.conflicts: list[Conflict] = []
        self.added: list[str] = []
        self.weak: list[str] = []
        self.matched = 0  # claim quantities and dates the premise states
        self.invented = 0  # added values the passage cannot give (see _invented)
        self._features: tuple[float, ...] | None = None
        self._rankings: dict[int, list[tuple[float, list[int]]]] = {}
        # How each claim quantity and date relates to the premise's comparable ones: (relation, premise item).
        self.q_rel = [[(r, o) for o in _candidates(q, premise) if (r := _bare_relation(q, o, premise)) is not None]
                      for q in claim.quantities]
        calendar = not (premise.fiscal or claim.fiscal)
        self.d_rel = [[(r, o) for o in premise.dates if (r := _date_relation(d, o, calendar)) is not None]
                      for d in claim.dates]
        # Premise clauses stating a claim specific score higher in the rankings (per claim clause, and in all).
        self.bonus: dict[int, dict[int, float]] = {}
        whole: dict[int, float] = {}
        stated: list[tuple[int, int, float]] = []  # (claim clause, premise clause, bonus)
        for q, q_rel in zip(claim.quantities, self.q_rel, strict=True):
            stated += [(q.clause, o.clause, 0.5 if "bare" in (o.dim, q.dim) else 1.0) for r, o in q_rel if r == 2]
        for d, d_rel in zip(claim.dates, self.d_rel, strict=True):
            stated += [(d.clause, o.clause, 1.0) for r, o in d_rel if r == 2]
        for k, c, extra in stated:
            own = self.bonus.setdefault(k, {})
            own[c] = own.get(c, 0.0) + extra
            whole[c] = whole.get(c, 0.0) + extra
        self.acronyms = _acronym_keys(premise, claim)
        self.whole = _ranked(premise, claim.content, [c.sequence for c in claim.clauses], whole)
        self.coverage, self.local = self._coverage()

    def _coverage(self) -> tuple[float, float]:
        """The share of the claim's content words the premise has, over all of it and in the best stretch of three
        sentences for each claim clause (weighted by the clause's size). A run of two or more adjacent content words
        the premise lacks ("a mobile phone") is an added specific."""
        p, h = self.p, self.h
        if not h.content:
            return 1.0, 1.0
        credit: dict[str, float] = {}
        where: dict[str, set[int]] = {}
        index, pstems, pclauses = p.index, p.stems, p.clauses
        for s in h.content:
            if s in pstems:
                w, key = 1.0, s
            elif len(s) >= 6 and "~" + s[:6] in index:
                w, key = 0.75, "~" + s[:6]
            elif s in self.acronyms:
                w, key = 1.0, self.acronyms[s]
            elif (related := _related(s, p)) is not None:
                w, key = _RELATED, related
            elif s in _ANTONYMS and _ANTONYMS[s] & pstems:
                credit[s] = 1.0  # "after" where the passage says "before": the antonym check compares them
                continue
            elif s in _LIGHT:
                credit[s] = 0.5  # "go", "keep", "set": verbs that say little; never an added specific
                continue
            else:
                continue
            credit[s] = w
            where[s] = {pclauses[c].sentence for c in index[key]}
        coverage = math.fsum(credit.values()) / len(h.content)
        local_total = 0.0
        size_total = 0
        for clause in h.clauses:
            sequence = clause.sequence
            if not sequence:
                continue
            missing = []
            for s in (*sequence, ""):
                if s and s not in credit:
                    missing.append(s)
                    continue
                if len(missing) >= 2:
                    self.added.append("words: " + " ".join(missing))
                elif len(missing) == 1 and s and sequence[0] == missing[0] \
                        and (other := self._other_modifier(missing[0], s)):
                    self.added.append(f"words: {missing[0]} {s} (premise: {other} {s})")
                missing = []
            stems = set(sequence)
            in_sentence: dict[int, set[str]] = {}
            for s in stems:
                for sid in where.get(s, ()):
                    in_sentence.setdefault(sid, set()).add(s)
            best = 0.0
            empty: set[str] = set()
            for start in in_sentence:
                # three sentences, and the passage's heading and first sentence (what later sentences speak about)
                topic = p.topics[start] if start < len(p.topics) else start
                found = in_sentence[start].union(in_sentence.get(start + 1, empty), in_sentence.get(start + 2, empty),
                                                 in_sentence.get(topic, empty), in_sentence.get(topic + 1, empty))
                best = max(best, math.fsum(credit[s] for s in found))  # (exact: a set's order varies)
            local_total += best
            size_total += len(stems)
        return coverage, (local_total / size_total if size_total else coverage)

    def _other_modifier(self, word: str, head: str) -> str:
        """The premise's own modifier of ``head`` where the claim has ``word`` (which the premise lacks) right before
        it, at the start of its clause (the subject; later on, a verb and its object look the same): "the antivirus
        client" for "the VPN client", "sick leave" for "annual leave" is another thing, not a paraphrase. "" when
        the premise has ``head`` only after words the claim has too (or after none)."""
        p, h = self.p, self.h
        if f"{word} {head}" not in h.adjacent:
            return ""
        for c in p.index.get(head, ()):
            sequence = p.clauses[c].sequence
            for j in range(1, len(sequence)):
                x = sequence[j - 1]
                if sequence[j] == head and x not in h.stems and f"{x} {head}" in p.adjacent:
                    return x
        return ""

    def ranking(self, clause: int) -> tuple[list[tuple[float, list[int]]], int, bool]:
        """The premise clauses ranked for one claim clause, their size and whether the ranking is loose: the whole
        claim's when that clause says too little to find its slot by itself."""
        core = self.h.clauses[clause].core
        if len(core) < 2:
            return self.whole, len(self.h.content), True
        r = self._rankings.get(clause)
        if r is None:
            r = self._rankings[clause] = self._clause_ranking(clause, sorted(core), self.h.clauses[clause].sequence)
        return r, len(core), False

    def _clause_ranking(self, k: int, stems: Sequence[str], sequence: Sequence[str]) -> list[tuple[float, list[int]]]:
        return _ranked(self.p, stems, [sequence], self.bonus.get(k, {}))

    def quantities(self) -> None:
        # (only a match of the same kind: "floors 3 and 4" does not account for "up to 4 hours")
        used = {id(o) for q, rel in zip(self.h.quantities, self.q_rel, strict=True) for r, o in rel
                if r == 2 and o.dim == q.dim}
        for q, rel in zip(self.h.quantities, self.q_rel, strict=True):
            self._specific("number", q, rel, *self.ranking(q.clause), used)

    def dates(self) -> None:
        # (a year alone, "the 2025 holiday", accounts for no premise date: "25 August 2025" may still contradict)
        used = {id(o) for d, rel in zip(self.h.dates, self.d_rel, strict=True) for r, o in rel
                if r == 2 and (d.month is not None or d.weekday is not None or d.quarter is not None)}
        derived = _derived_dates(self.h, self.p)
        for k, (d, rel) in enumerate(zip(self.h.dates, self.d_rel, strict=True)):
            if k in derived:
                self.matched += 1  # a date the passage's dates and durations give ("30 days after 1 June")
                continue
            self._specific("date", d, rel, *self.ranking(d.clause), used)

    def _specific(self, kind: str, item: _Quantity | _Date, rel: list[tuple[int, _Quantity]] | list[tuple[int, _Date]],
                  ranking: list[tuple[float, list[int]]], size: int, loose: bool, used: set[int]) -> None:
        """Compare one claim quantity or date with its slot: the best-aligned premise clauses that hold one. With a
        loose ranking, the same value anywhere in the premise will do. A premise value that states another of the
        claim's values (``used``) is accounted for: it does not contradict this one ("25 days plus 3 more")."""
        entailed = any(r == 2 for r, _ in rel)
        if loose and entailed:
            self.matched += 1
            return
        soft = isinstance(item, _Quantity) and item.soft
        if soft and not entailed:
            # "a day", "every week": only a value for the same unit that it falls outside of says otherwise
            rel = [(r, o) for r, o in rel if r == 0 and not o.rate]  # type: ignore[assignment,union-attr]
        by_clause: dict[int, list[tuple[int, _Quantity | _Date]]] = {}
        for r, other in rel:
            if r == 2 or id(other) not in used:
                by_clause.setdefault(other.clause, []).append((r, other))
        for score, clauses in ranking if by_clause else ():
            if score / max(size, 1) < 0.25:
                break
            related = [x for c in clauses for x in by_clause.get(c, ())]
            if not related:
                continue
            top = max(r for r, _ in related)
            if top == 2:
                self.matched += 1
                return
            coarse = all(not _plain(o) for r, o in related if r == 1)
            if top == 1 and coarse and entailed:
                # Only a coarser value here ("2025", "Q3", "up to 10"), the exact one elsewhere: it is stated.
                self.matched += 1
                return
            if top == 1 and not (any(r == 0 and _plain(o) for r, o in related) and coarse):
                # Compatible with the slot's value ("8 days" with "up to 10 days"), unless another value there, an
                # exact one, says otherwise ("8 weeks" against "the first 6 weeks ... for up to 12 months").
                self.weak.append(f"{kind}: {item.text} (premise: {related[0][1].text})")
                return
            related = [x for x in related if x[0] == 0]
            strength = _strength(score / max(size, 1))
            if rel and not soft and all(r == 0 for r, _ in rel) and len({o.clause for _, o in rel}) == 1:
                # the passage's only values of this kind, in one clause, and they are other: the same slot, however
                # the claim words it
                strength = max(strength, 0.7)
            if not any(_plain(other) for _, other in related):
                strength *= 0.7  # a looser bound or a rate on the premise's side: less sure it is the same slot
            if strength < 0.3:  # too loosely aligned to be the same slot: the claim's value is simply not stated
                self.added.append(f"{kind}: {item.text}")
                self._invented(item)
            else:
                self.conflicts.append(Conflict(kind, item.text, related[0][1].text, strength))
            return
        if entailed:
            self.matched += 1
        elif not soft or not self._names_unit(item):  # type: ignore[arg-type]
            self.added.append(f"{kind}: {item.text}")
            self._invented(item)

    def _invented(self, item: _Quantity | _Date) -> None:
        """Count an added value the passage cannot be read to give: a day of the calendar it neither names nor
        gives by calendar arithmetic (see ``_derived_dates``), a number no one step of arithmetic on its numbers
        gives (a sum, difference, product or ratio of two of them, one of them by a calendar factor), or one of its
        numbers with another unit or rate ("10 days" for "10 working days")."""
        if isinstance(item, _Date):
            if item.month is not None and item.day is not None:
                self.invented += 1  # a day of the calendar the passage neither names nor gives by arithmetic
            return
        if item.number in self.p.written or not (_derivable(item.number, self.p) or _derivable(item.value, self.p)):
            # (the same number as written, with another unit or rate, is another thing: "10 days" for "10 working
            # days", "€500 a week" for "a monthly budget of €500")
            self.invented += 1

    def _names_unit(self, q: _Quantity) -> bool:
        """Whether the premise speaks of a soft quantity's unit at all (a word, a unit or a rate: "per year")."""
        unit = q.unit or q.dim.partition(":")[2]
        return unit in self.p.stems or any(o.unit == unit or (o.rate and _stem(o.rate) == unit)
                                           for o in self.p.quantities)

    def entities(self) -> None:
        """Each claim entity against the premise clauses its clause's other words align with (its slot). A name the
        premise does not have, where the slot has another name in the same position, is a contradiction ("in
        Munich" for "in Berlin"); a name the premise has, but elsewhere while the slot names another, is not
        stated ("the Basic plan" for what the Enterprise plan has)."""
        p, h = self.p, self.h
        for e in h.entities:
            present = _entity_present(e, p) or (bool(e.acronyms) and all(_stem(a.lower()) in self.acronyms
                                                                             for a in e.acronyms))
            own = set(e.stems)
            sequence = [s for s in h.clauses[e.clause].sequence if s not in own]
            if len(set(sequence)) < 2:
                sequence = [s for c in h.clauses for s in c.sequence if s not in own]
            size = len(set(sequence))
            ranking = self._clause_ranking(e.clause, sorted(set(sequence)), sequence) if size else []
            best = ranking[0][0] if ranking else 0.0
            found: Conflict | None = None
            for score, clauses in ranking:
                if score < 0.5 * best or score / size < 0.3:
                    break
                if any(own <= p.clause_stems[c] or any(own <= set(o.stems) for o in p.clause_entities.get(c, ()))
                       for c in clauses):
                    break  # the slot names it
                rivals = [o for c in clauses for o in p.clause_entities.get(c, ()) if not _entity_present(o, h)
                          and not _abbreviates(e.text, o.text) and not _abbreviates(o.text, e.text)]
                same_slot = [o for o in rivals if (o.left and o.left == e.left) or (o.right and o.right == e.right)]
                if same_slot:
                    found = Conflict("entity", e.text, same_slot[0].text, _strength(score / size))
                if found or rivals:
                    break
            if found and h.clauses[e.clause].category in (_NEG, _PROH, _NOTREQ) \
                    and any(p.clauses[c].scope & _RESTRICTIVE for _, cs in ranking[:1] for c in cs):
                found = None  # "not on Pro" against "only on Enterprise": the other name is what "only" excludes
                self.weak.append(f"entity: {e.text} (the passage's rule is only for another)")
            elif found and present:
                self.added.append(f"entity: {e.text} (the passage says {found.premise} there)")
            elif found:
                self.conflicts.append(found)
            elif not present:
                self.added.append(f"entity: {e.text}")

    def polarity(self) -> None:
        """Each claim clause against its best-aligned premise clause: polarity, modality and antonyms."""
        p, h = self.p, self.h
        for k, clause in enumerate(h.clauses):
            core = clause.core
            if not core:
                continue
            ranking = self._rankings.get(k)
            if ranking is None:
                ranking = self._rankings[k] = self._clause_ranking(k, sorted(core), clause.sequence)
            if not ranking:
                continue
            score, best = ranking[0]
            fraction = score / len(core)
            if fraction < 0.5 or score < min(2, len(core)):
                continue
            strength = _strength(fraction)
            # Clause splitting is rough: a neighbour of the best clauses in the same sentence that has claim words
            # they lack, and a clause after them that starts with a pronoun, may carry the predicate.
            sentences = {p.clauses[c].sentence for c in best}
            seen = core.intersection(*(p.clauses[c].core for c in best))
            candidates = list(best) + [c for _, cs in ranking[1:] for c in cs if p.clauses[c].sentence in sentences
                                       and (core & p.clauses[c].core) - seen]
            candidates += [c + 1 for c in best if c + 1 < len(p.clauses) and p.clauses[c + 1].continues
                           and core & (p.clauses[c + 1].core - set(p.clauses[c + 1].sequence[:2]))]
            if self.bonus.get(k):  # the claim's specifics chose among clauses its words tie: those count too
                words = _ranked(p, sorted(core), [clause.sequence], {})
                candidates += [c for c in (words[0][1] if words else ()) if c not in candidates]
            if clause.category != _AFF and all(p.clauses[c].category == _AFF for c in candidates):
                # A modal claim is decided by a modal premise clause about the same thing, if there is one.
                modal = [c for s2, cs in ranking if s2 / len(core) >= 0.5 and s2 >= min(1.5, len(core)) for c in cs
                         if p.clauses[c].category != _AFF]
                if modal:
                    candidates = modal
            # The most compatible one decides: agreeing, then compatible but not entailed (-1), then the least conflict.
            v, c = min(((_polarity(clause, p.clauses[c]), c) for c in candidates), key=lambda vc: _compatibility(vc[0]))
            if v > 0:
                self.conflicts.append(Conflict("polarity", _CATEGORY_NAMES[clause.category],
                                               _CATEGORY_NAMES[p.clauses[c].category], v * strength))
            elif v < 0:
                self.weak.append(f"modality: {_CATEGORY_NAMES[clause.category]} "
                                 f"(premise: {_CATEGORY_NAMES[p.clauses[c].category]})")
            aligned = [c2 for s2, cs in ranking if s2 / len(core) >= 0.5 for c2 in cs]
            for a in sorted(clause.antonyms):
                if _ANTONYMS[a] & clause.antonyms or any(a in p.clause_stems[c2] for c2 in aligned):
                    continue  # "open enrollment closes"; or a clause about the same things says it too
                if all(_ANTONYMS[a] & p.clause_stems[c2] for c2 in best):
                    other = sorted(_ANTONYMS[a] & p.clause_stems[best[0]])[0]
                    self._opposite(clause, a, other, strength)
            for a in sorted(core - seen):  # WordNet's antonyms: "accepted" against "refused", "locked" / "unlocked"
                opposite = antonyms(a)
                if not opposite or opposite & core or any(a in p.clause_stems[c2] for c2 in aligned):
                    continue
                if all(opposite & p.clause_stems[c2] for c2 in best):
                    other = sorted(opposite & p.clause_stems[best[0]])[0]
                    self._opposite(clause, a, other, strength)

    def agents(self) -> None:
        """Who acts: a claim clause's agent ("approved by the department head") against its best-aligned premise
        clause's ("by the line manager"). Another agent, sharing no word, where the rest aligns well, is a conflict
        (a different approver is enough, says the claim); one that adds to the passage's shares a word and is left
        to coverage (an additional approver: not stated)."""
        p = self.p
        if not any(c.agent for c in self.h.clauses) or not any(c.agent for c in p.clauses):
            return
        for clause in self.h.clauses:
            mine = set(clause.agent)
            if not mine:
                continue
            rest = clause.core - mine
            if len(rest) < 2:
                continue
            ranking = _ranked(p, sorted(rest), [tuple(s for s in clause.sequence if s not in mine)], {})
            if not ranking:
                continue
            score, best = ranking[0]
            fraction = score / len(rest)
            theirs = [set(p.clauses[c].agent) for c in best if p.clauses[c].agent]
            if fraction < 0.6 or not theirs or any(mine & other for other in theirs) \
                    or any(mine <= p.clause_stems[c] for c in best):
                continue
            strength = _strength(fraction)
            if strength >= 0.3:
                other = next(p.clauses[c].agent for c in best if p.clauses[c].agent)
                self.conflicts.append(Conflict("agent", " ".join(clause.agent), " ".join(other), strength))

    def _opposite(self, clause: _Clause, word: str, other: str, strength: float) -> None:
        """The claim says ``word`` where its slot says the opposite. In the subject ("part-time staff get 25 days"
        against "full-time staff get 25 days") that is another case, which the passage does not address; in the
        predicate ("fees are charged in advance" against "in arrears") it is a contradiction."""
        if word in clause.sequence[:2]:
            self.added.append(f"words: {word} (the passage speaks of {other})")
        else:
            self.conflicts.append(Conflict("antonym", word, other, strength))

    def rule(self) -> tuple[float, float, float]:
        """The hand-set reading of the evidence (version 2's formula): entailment from coverage, less for each
        added specific or weak match, contradiction from the strongest conflicts. It decides the clean cases and is
        one input of the fitted model."""
        coverage, _, _ = self.support()
        e = 1.0 / (1.0 + math.exp(-12.0 * (coverage - 0.7)))
        e *= 0.2 ** len(self.added) * 0.4 ** len(self.weak)
        c = 0.0
        for conflict in self.conflicts:
            c = 1.0 - (1.0 - c) * (1.0 - conflict.strength)
        e *= (1.0 - c) ** 2
        p_c = 0.03 + 0.85 * c
        p_e = (1.0 - p_c) * (0.03 + 0.87 * e)
        return p_e, 1.0 - p_c - p_e, p_c

    def support(self) -> tuple[float, float, float]:
        """How well the premise supports the claim: over the whole premise and in its best stretch of sentences,
        the specifics it states counted as covered words (those it does not are counted as added), and the two
        combined (the best stretch, or the whole a little discounted)."""
        h = self.h
        n, k = len(h.content), len(h.quantities) + len(h.dates)
        local = (self.local * n + self.matched) / (n + k) if n + k else 1.0
        overall = (self.coverage * n + self.matched) / (n + k) if n + k else 1.0
        return max(local, overall - 0.3), overall, local

    def features(self) -> tuple[float, ...]:
        """The evidence as numbers, in the order of ``_lexical_model.FEATURES`` (computed once)."""
        if self._features is None:
            self._features = self._evidence()
        return self._features

    def _evidence(self) -> tuple[float, ...]:
        supported, overall, local = self.support()
        added = [a.partition(":")[0] for a in self.added]
        weak = [w.partition(":")[0] for w in self.weak]
        strongest = dict.fromkeys(("number", "date", "entity", "polarity", "antonym", "agent"), 0.0)
        for conflict in self.conflicts:
            strongest[conflict.kind] = max(strongest[conflict.kind], conflict.strength)
        p_e, p_n, p_c = self.rule()
        clean = not self.added and not self.weak and max(strongest.values()) < 0.3
        return (
            supported, overall, local, math.log(p_e), math.log(p_n), math.log(p_c),
            added.count("words"), added.count("number"), added.count("date"), added.count("entity"),
            weak.count("number") + weak.count("date"), weak.count("modality"), *strongest.values(),
            float(len(self.conflicts)), float(self.matched), float(clean), float(clean) * supported,
            # the same evidence weighs more when the rest of the claim is well supported
            len(added) * supported, max(strongest["entity"], strongest["agent"]) * supported,
            max(strongest["number"], strongest["date"]) * supported, strongest["polarity"] * supported,
        )

    def decisive(self) -> bool:
        """Whether the hand-set rule decides alone: where its evidence is clean, that is a number, date, name or
        approver in conflict in a well-aligned slot; a value the passage cannot give (see ``_invented``) or a date
        it states less precisely; a claim whose words the passage has, but scattered (a composite it may not make);
        or a claim the passage otherwise supports well with a specific added, weakly stated or in conflict ("25 days
        of leave plus 3 wellness days"). Elsewhere (loosely supported claims, where what looks added is as often a
        paraphrase the reading missed) the fitted model weighs the evidence."""
        if any(c.strength >= 0.9 and c.kind in ("number", "date", "entity", "agent") for c in self.conflicts):
            return True
        if self.invented or any(w.startswith("date:") for w in self.weak):
            return True  # a value the passage cannot give, or a date it states less precisely: not supported
        x = self.features()
        if x[_OVERALL] - x[_LOCAL] >= 0.3:
            return True
        return bool(self.added or self.weak or self.conflicts) and x[_SUPPORTED] >= 0.75

    def probabilities(self) -> Probabilities:
        h = self.h
        if not h.content and not h.quantities and not h.dates and not h.entities:
            return Probabilities(0.1, 0.8, 0.1)
        if self.decisive():
            return Probabilities(*self.rule())
        p = _fitted(self.features())
        if not self.conflicts and p.contradiction > max(p.neutral, p.entailment):
            # No conflict it can name: it does not say "contradiction" (the model's share goes to "neutral").
            return Probabilities(p.entailment, p.neutral + p.contradiction - 0.02, 0.02)
        return p


_SUPPORTED, _OVERALL, _LOCAL = range(3)  # the first features (see FEATURES in nli/fit_lexical.py)


def _fitted(x: Sequence[float]) -> Probabilities:
    """The fitted multinomial logistic model over the features (``nli/fit_lexical.py`` wrote its weights from the
    development sets), squeezed so that no label is ever certain: a heuristic's confident answers are right most of
    the time, not always."""
    z = [(v - m) / s for v, m, s in zip(x, _model.MEAN, _model.SCALE, strict=True)]
    logits = [b + sum(w * v for w, v in zip(row, z, strict=True)) for row, b in zip(_model.WEIGHTS, _model.BIAS,
                                                                                   strict=True)]
    top = max(logits)
    exp = [math.exp(v - top) for v in logits]
    total = sum(exp)
    e, _, c = (0.02 + 0.94 * v / total for v in exp)
    return Probabilities(e, 1.0 - e - c, c)


def _polarity(claim: _Clause, premise: _Clause) -> float:
    """How strongly a claim clause's polarity and modality conflict with a premise clause's (see ``_POLARITY``).
    A conditional prohibition ("not permitted unless approved") also reads as a requirement ("requires approval");
    against it, a plain permission or statement is not entailed (the condition is missing) but not contradicted
    either. A permission with "without" ("may enter without being escorted") contradicts an obligation."""
    if claim.condition and not claim.conditional and claim.category in (_AFF, _PERM) and premise.category == _OBL:
        return 1.0
    exception = premise.conditional or premise.scope & _RESTRICTIVE  # "not ... unless approved", "only for ..."
    negative = claim.category in (_NEG, _PROH, _NOTREQ) and not claim.scope & (_ABSOLUTE | _UNIVERSAL)
    if negative and premise.scope & _RESTRICTIVE and not claim.scope & _RESTRICTIVE \
            and premise.category in (_AFF, _PERM, _OBL) and claim.core - premise.core:
        return -1  # "not on Pro" against "only on Enterprise": a case outside the rule, which it may imply
    if negative and premise.condition and not premise.conditional and premise.category in (_AFF, _OBL) \
            and claim.core & premise.exception:
        return -1  # "need not delete it under a legal hold" against "must delete ... unless a legal hold applies"
    if exception and not claim.condition:
        if claim.scope & _ABSOLUTE and claim.category in (_NEG, _PROH):
            return 1.0  # "never allowed" against "not allowed without a sponsor"
        if claim.scope & _UNIVERSAL and claim.category in (_AFF, _PERM):
            return 1.0  # "any tool may be used" against "prohibited unless approved"
        if claim.scope & _RESTRICTIVE and claim.category in (_AFF, _PERM):
            return 0.0  # "only approved tools may be used": the same rule, from the other side
    if premise.scope & _UNIVERSAL and premise.category in (_AFF, _PERM) and claim.scope & _RESTRICTIVE:
        return 1.0  # "only X" against "any X"
    pairs = [(claim.category, premise.category)]
    if premise.conditional:
        if claim.conditional:
            pairs.append((_OBL, _OBL))
        elif not claim.condition:
            if claim.category in (_AFF, _PERM):
                return -1
            pairs.append((claim.category, _OBL))
    elif claim.conditional:
        pairs.append((_OBL, premise.category))
    return min((_POLARITY.get(pair, 0.0) for pair in pairs), key=_compatibility)


def _compatibility(v: float) -> tuple[bool, bool, float]:
    """Orders polarity outcomes from the most compatible: agreeing (0), not entailed (-1), then conflicts."""
    return v != 0, v > 0, v


def _plain(x: _Quantity | _Date) -> bool:
    """An exact value: a quantity without bound or rate; a date with at least a month or a weekday (not a bare year or
    quarter, which a more precise date in the same slot overrides: "FY2024 ... ends on June 30, 2024")."""
    if isinstance(x, _Quantity):
        return x.bound in ("eq", "approx") and not x.rate
    return (x.month is not None or x.weekday is not None) and x.span is None


def _decided(premise: str, hypothesis: str) -> _Decision:
    d = _Decision(_analyse(premise), _analyse(hypothesis))
    d.quantities()
    d.dates()
    d.entities()
    d.polarity()
    d.agents()
    return d


def _features(premise: str, hypothesis: str) -> tuple[tuple[float, ...], bool]:
    """The features of one pair and whether the rule decides it alone (``nli/fit_lexical.py`` fits the model on
    the pairs the rule leaves to it)."""
    d = _decided(premise, hypothesis)
    return d.features(), d.decisive()


def _explain(premise: str, hypothesis: str) -> Explanation:
    d = _decided(premise, hypothesis)
    return Explanation(d.probabilities(), d.coverage, d.local, tuple(d.conflicts), tuple(d.added), tuple(d.weak))


class LexicalJudge:
    """Content-word coverage plus consistency checks (numbers, dates, entities, negation, modality); see the module
    docstring. Deterministic, pure Python, no model."""

    name: ClassVar[str] = "lexical"
    version = "3"
    window_chars = 4000

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        """One :class:`Probabilities` per ``(premise, hypothesis)`` pair, in order."""
        out: list[Judgement] = []
        for premise, hypothesis in pairs:
            try:
                out.append(_explain(premise, hypothesis).probabilities)
            except Exception as exc:  # a bug must not take the worker down: the pair is counted apart
                out.append(JudgeFailure(f"lexical judge error: {type(exc).__name__}"))
        return out

    def explain(self, premise: str, hypothesis: str) -> Explanation:
        """The probabilities for one pair with the coverage, conflicts and added specifics behind them."""
        return _explain(premise, hypothesis)
