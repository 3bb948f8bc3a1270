"""Collect stage helper: is a hot-memory entry phrased as a command, or shaped like a prompt injection? Used by collectors.lifeos.hot_content.

The curation contract (seed 002 §2.4, §3) says hot entries are declarative facts about the
person, never instructions: `PREFERENCE: prefers terse responses`, not `RULE: Always be
terse`, which a later prompt reads as a command. Memory is injected into every prompt, so it
is also where an injected instruction does the most harm. Each detector returns the rule
that matched (a short phrase for the report) or None. They read one entry at a time and are
measured against the labelled set in tests/data/hot_entries_labelled.jsonl (precision and
recall per detector: tests/collectors/test_hot_content_labelled.py). Stdlib only.
"""
from __future__ import annotations

import re

from collectors.lifeos.hot_entry_text import Entry

# Verbs that open a command to the assistant in their base form ("Use metric units"); a fact
# about the person uses the third person ("uses metric units"). Verbs that often open a noun
# phrase at the start of a ROLE or NAME (design, lead, support, test, run, call, list) are left out.
_COMMAND_VERBS = (
    "always never please do don't dont avoid respond reply answer use be keep remember ensure make stop ask tell say "
    "write format include prefer greet address refer explain provide give show remind treat assume prioritize "
    "prioritise focus try follow stick skip omit speak talk wait let cite summarize summarise translate mention "
    "suggest confirm double-check verify default check refrain reject refuse warn notify flag add put send "
    "save ignore disregard forget override reveal bypass act pretend decode respect").split()
# After always/never/please any of these is a command too ("Never run migrations on Fridays").
_VERBS_AFTER_ADVERB = frozenset(_COMMAND_VERBS + (
    "apologize apologise guess invent hedge moralize moralise lecture swear curse delete push commit deploy merge run "
    "share post email call book schedule buy order design test list start end open close print copy paste edit change "
    "create remove drop reveal expose disclose read look search browse install update upgrade use go come leave "
    "interrupt contact bother bring offer recommend limit return output generate produce type capitalize "
    "capitalise pay trust rely sort rank respect honor honour").split())
_NOUN_AFTER = frozenset("of is was are were 's".split())  # "Use of Oxford commas", "Answer is 42": a noun
_OPENERS = frozenset(("just", "only", "also", "still", "kindly", "strictly", "then", "ever"))
_SENTENCE = re.compile(r"[.;!?]\s+|>\s*|\s+[-–—]\s+")

_YOU_MUST = re.compile(
    r"\byou(?:'ll| will| really)?\s+(?:must|should|shall|need to|have to|has to|are to|are required to|ought to|"
    r"had better|better|are expected to|are supposed to|may not|must not|mustn't|should not|shouldn't|cannot|can't|"
    r"are not allowed to|aren't allowed to|never|always)\b", re.I)
_OUTPUT_MUST = re.compile(
    r"\b(?:responses?|answers?|replies|reply|outputs?|suggestions?|summaries|summary|explanations?|the assistant|"
    r"the da|assistant|claude)\s+(?:must|should|shall|needs? to|has to|have to|is to|are to)\b", re.I)
_CJK_COMMAND = re.compile(
    r"^(?:请|忽略|无视|忘记|忘掉|一定要|必须|永远不要|绝对不要|千万不要|不要|不许|不准|禁止|总是要|始终要|记得要|记住要|别再)|务必|務必"
    r"|(?:你|您)(?:必须|应该|应当|需要|不要|别|不许|得)"
    r"|(?:[てで]ください|ないでください|しなさい|するな|て下さい)"
    r"|(?:하세요|하십시오|하지 마세요|하지 마|해 주세요|해주세요)")
_MODALS = ("must", "should", "shall", "need", "has to", "have to", "is to", "are to")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def imperative(entry: Entry) -> str | None:
    """Why the entry reads as a command to the assistant rather than a fact about the person, or None."""
    body = entry.body.lstrip("\"'“‘*-– ")
    lower = body.lower()  # substring gates first: a case-insensitive alternation costs ~10 µs an entry
    if "you" in lower and _YOU_MUST.search(body):
        return "addresses the assistant with 'you must/should'"
    if any(word in lower for word in _MODALS) and _OUTPUT_MUST.search(body):
        return "tells the assistant what its answers must be"
    if not body.isascii() and _CJK_COMMAND.search(body):
        return "phrased as a command (请/务必/不要/你必须)"
    if entry.prefix == "NAME":  # "NAME: Mark", "NAME: Grace": a name is never a command
        return None
    for sentence in _SENTENCE.split(body)[:4]:  # each sentence may open with a command
        found = _leading_command([word.lower() for word in _WORD.findall(sentence[:80])])
        if found:
            return found
    return None


def _leading_command(words: list[str]) -> str | None:
    """A body opening with a base-form command verb, optionally after always/never/please/do not."""
    position = 0
    while position < len(words) and words[position] in _OPENERS:
        position += 1
    if position >= len(words):
        return None
    first = words[position]
    following = words[position + 1] if position + 1 < len(words) else ""
    if first in ("always", "never", "please"):
        if following in _VERBS_AFTER_ADVERB:
            return f"opens with '{first} {following}'"
        return None
    if first in ("do", "don't", "dont") and (following in ("not", "ever") or following in _VERBS_AFTER_ADVERB):
        return f"opens with '{first} {following}'"
    if first in ("do", "don't", "dont"):
        return None
    if first in _COMMAND_VERBS and following not in _NOUN_AFTER:
        return f"opens with the command verb '{first}'"
    return None


# Prompt-injection shapes and commands to run. Kept narrow on purpose: a critical finding must
# be right (precision above 0.95 on the labelled set); facts *about* security work stay quiet.
_NEGATED = re.compile(r"(?:\bnever|\bnot|n't|\bno|\bwithout|\bdon't|\bdo not)\s+(?:\w+\s+){0,1}$", re.I)
_INJECTIONS = (
    ("asks to ignore earlier instructions",
     re.compile(r"\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|of\s+)*(?:the\s+|your\s+|these\s+|"
                r"those\s+|my\s+)?(?:previous|prior|above|earlier|preceding|foregoing|original|system|safety|initial)\s+"
                r"(?:\w+\s+)?(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|guardrails|messages|"
                r"context|restrictions|constraints)\b|\b(?:ignore|disregard)\s+(?:all\s+of\s+|everything\s+)?(?:the\s+)?"
                r"above\b|\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:your|all)\s+(?:instructions|"
                r"rules|guidelines|programming|training)\b", re.I)),
    ("targets the system prompt",
     re.compile(r"\b(?:reveal|print|show|repeat|output|leak|dump|display|override|replace|overwrite|change|ignore|"
                r"disregard|forget|bypass|update|rewrite)\s+(?:me\s+)?(?:the\s+|your\s+|its\s+)?(?:entire\s+|full\s+)?"
                r"(?:system|developer|hidden|initial)\s+(?:prompt|message|instructions)\b|^(?:system|developer)\s*"
                r"(?:prompt|message|override)?\s*:|\bnew\s+(?:system\s+)?instructions\s*:", re.I)),
    # Markup read as a prompt boundary: a closing tag, a chat-template token, or an opening tag that starts a
    # sentence; a tag mentioned mid-sentence ("maintains the <system> element") is prose about markup.
    ("opens or closes a prompt block",
     re.compile(r"<\s*/\s*(?:system|assistant|user|lifeos-memory|lifeos-recall|instructions?)\s*>"
                r"|(?:^|[.;:!?>]\s*)<\s*(?:system|assistant|user|lifeos-memory|lifeos-recall|instructions?)\s*>"
                r"|<\|(?:im_start|im_end|system|endoftext|user|assistant)\|>|\[/?(?:INST|SYS)\]|<<\s*/?SYS\s*>>", re.I)),
    ("tries to change who the assistant is",
     re.compile(r"\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:DAN|unrestricted|unfiltered|jailbroken|free\s+of|"
                r"developer\s+mode|no\s+longer\s+bound|evil)|\b(?:act|pretend|behave)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?"
                r"(?:an?\s+)?(?:DAN|unrestricted|unfiltered|jailbroken)\b|\bdeveloper\s+mode\s+(?:enabled|on)\b", re.I)),
    ("a command to run (download piped into a shell)",
     re.compile(r"\b(?:curl|wget|fetch|iwr|invoke-webrequest)\s+[^|\s][^|\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b"
                r"|\b(?:curl|wget)\s+[^|\s][^|\n]{0,200}\|\s*(?:sudo\s+)?python[0-9.]*\b|\|\s*iex\b|\$\(\s*(?:curl|wget)\s",
                re.I)),
    ("a command to run (decodes hidden base64)",
     re.compile(r"\bbase64\s+(?:-d|--decode|-D)\b|\bfrombase64string\b|\batob\s*\(", re.I)),
    ("a command to run (destructive or remote shell)",
     re.compile(r"\brm\s+-(?:rf|fr|r\s+-f)\s+(?:/|~|\$HOME|\*)|\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-(?:e|enc|"
                r"encodedcommand)\s|\bnc\s+(?:-\w+\s+)*-e\s|\bchmod\s+\+x\s+\S+\s*(?:;|&&)\s*\./|"
                r"\bmkfifo\b.*\bnc\b|/dev/tcp/", re.I)),
    ("asks to ignore earlier instructions (CJK)",
     re.compile(r"(?:忽略|无视|忘记|忘掉|不要理会|跳过)(?:掉)?(?:你)?(?:之前|以上|上面|前面|先前|此前|所有|一切|原有|原来)(?:的)?"
                r"(?:所有|全部)?(?:的)?(?:指令|指示|提示词?|规则|设定|要求)|以前の指示を無視|이전 지시를 무시")),
    ("targets the system prompt (CJK)",
     re.compile(r"(?:泄露|输出|显示|打印|重复|透露|告诉我|覆盖|修改|忽略)(?:你的|出)?(?:系统提示词?|系统指令|系统消息)"
                r"|システムプロンプトを(?:表示|出力|無視)")),
)
# Every pattern above needs one of these (in the lower-cased body): most entries are ruled out by a few
# substring tests, far cheaper than one case-insensitive alternation.
_INJECTION_WORDS = (
    "ignor", "disregard", "forget", "overrid", "bypass", "skip", "prompt", "instruction", "system", "developer", "<",
    "[", "you are now", "act as", "pretend", "behave as", "curl", "wget", "fetch", "iwr", "invoke-", "iex", "$(",
    "base64", "atob", "rm ", "powershell", "nc ", "chmod", "mkfifo", "/dev/tcp", "忽略", "无视", "忘记", "忘掉",
    "不要理会", "跳过", "系统", "無視", "システム", "이전")
# Unicode tag characters hide text from a reader; bidi embeddings, overrides and isolates reorder it (Trojan Source).
_HIDDEN = re.compile("[\U000E0000-\U000E007F]|[\u202A-\u202E\u2066-\u2069]")


def injection(entry: Entry) -> str | None:
    """Why the entry looks like a prompt injection or a command to run, or None."""
    if not entry.text.isascii() and _HIDDEN.search(entry.text):
        return "hides or reorders text (Unicode tag or bidi-control characters)"
    text = entry.body
    lower = text.lower()
    if not any(word in lower for word in _INJECTION_WORDS):
        return None
    for reason, pattern in _INJECTIONS:
        for match in pattern.finditer(text):
            mentioned = _quoted(text, match) and not reason.startswith("a command")  # code in quotes still runs
            if not _NEGATED.search(text[:match.start()][-40:]) and not mentioned:
                return reason
    return None


def _quoted(text: str, match: re.Match[str]) -> bool:
    """A phrase in quotes is mentioned, not used ("writes about 'ignore previous instructions' attacks")."""
    before, after = text[:match.start()].rstrip(), text[match.end():].lstrip()
    return bool(before) and bool(after) and before[-1] in _QUOTES and after[0] == _QUOTES[before[-1]]


_QUOTES = {"'": "'", '"': '"', "‘": "’", "“": "”", "「": "」", "『": "』"}
