"""Commit titles: bracket tags, conventional-commit prefixes, reverts -> a change type.

A title such as ``[ROCm][Bugfix] Fix Mamba decode (#32099)`` or ``feat(api)!: drop v1``
says what kind of change it is. :func:`parse_title` takes it apart; :func:`change_type_from_title`
turns it into a :class:`~commitdigest.models.ChangeType` or ``None`` when the title says
nothing about the type.

Precedence, highest first (used when several signals disagree)::

    security > revert > bugfix > removal > performance > feature > dependency
             > refactor > ci_build > test > documentation

* A ``Revert "..."`` prefix and security words (CVE, vulnerability, ...) win over every tag:
  they are the most specific thing a title can say.
* Otherwise typed bracket tags and the conventional-commit type decide (the highest by the
  order above): ``[ROCm][Bugfix] ...`` is a bug fix, ``[Perf][Refactor]`` is performance.
  A type tag beats keywords, so ``[CI] Fix flaky test`` is ``ci_build`` (a fix *to CI*), and
  ``[Refactor] Remove X`` stays a refactor.
* Tags that name an area, not a type (``[Misc]``, ``[ROCm]``, ``[Model Runner V2]``,
  ``[1/N]``, ``[Kernel]``, ``[Model]`` ...) are skipped, never mapped to ``other``.
* Failing tags, keywords in the title decide (:data:`KEYWORD_RULES`, first match wins;
  Chinese titles too: ``修复调度器崩溃`` is a bug fix, ``新增缓存层`` a feature).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from commitdigest.facts import ChangeType
from commitdigest.text import Sieved

# highest first; see the module docstring
PRECEDENCE: tuple[ChangeType, ...] = (
    ChangeType.SECURITY,
    ChangeType.REVERT,
    ChangeType.BUGFIX,
    ChangeType.REMOVAL,
    ChangeType.PERFORMANCE,
    ChangeType.FEATURE,
    ChangeType.DEPENDENCY,
    ChangeType.REFACTOR,
    ChangeType.CI_BUILD,
    ChangeType.TEST,
    ChangeType.DOCUMENTATION,
    ChangeType.OTHER,
)
_RANK = {t: i for i, t in enumerate(PRECEDENCE)}

# normalised tag key (lowercase, letters and digits only) -> type
TAG_TYPES: dict[str, ChangeType] = {
    **dict.fromkeys(["security", "cve", "vuln", "vulnerability"], ChangeType.SECURITY),
    **dict.fromkeys(["revert", "reverts"], ChangeType.REVERT),
    **dict.fromkeys(
        ["bugfix", "bugfixes", "fix", "fixes", "bug", "hotfix", "fixup", "regression"],
        ChangeType.BUGFIX,
    ),
    **dict.fromkeys(
        ["deprecation", "deprecate", "deprecated", "removal", "remove"], ChangeType.REMOVAL
    ),
    **dict.fromkeys(
        ["perf", "performance", "optimization", "optimisation", "optimize", "speedup"],
        ChangeType.PERFORMANCE,
    ),
    **dict.fromkeys(["feature", "feat", "features", "newmodel", "newfeature"], ChangeType.FEATURE),
    **dict.fromkeys(["deps", "dep", "dependency", "dependencies", "bump"], ChangeType.DEPENDENCY),
    **dict.fromkeys(
        ["refactor", "refactoring", "cleanup", "chore", "style", "typing", "be"],
        ChangeType.REFACTOR,
    ),
    **dict.fromkeys(
        ["ci", "build", "cibuild", "cicd", "packaging", "docker"],
        ChangeType.CI_BUILD,
    ),
    **dict.fromkeys(["test", "tests", "testing", "unittest", "ut"], ChangeType.TEST),
    **dict.fromkeys(
        ["doc", "docs", "documentation", "typo", "typos", "readme", "docstring"],
        ChangeType.DOCUMENTATION,
    ),
}

# conventional-commit type -> change type (``chore(deps)``/``build(deps)`` -> dependency)
CONVENTIONAL_TYPES: dict[str, ChangeType] = {
    "feat": ChangeType.FEATURE,
    "feature": ChangeType.FEATURE,
    "fix": ChangeType.BUGFIX,
    "bugfix": ChangeType.BUGFIX,
    "hotfix": ChangeType.BUGFIX,
    "docs": ChangeType.DOCUMENTATION,
    "doc": ChangeType.DOCUMENTATION,
    "perf": ChangeType.PERFORMANCE,
    "refactor": ChangeType.REFACTOR,
    "style": ChangeType.REFACTOR,
    "chore": ChangeType.REFACTOR,
    "build": ChangeType.CI_BUILD,
    "ci": ChangeType.CI_BUILD,
    "test": ChangeType.TEST,
    "tests": ChangeType.TEST,
    "revert": ChangeType.REVERT,
    "deps": ChangeType.DEPENDENCY,
    "security": ChangeType.SECURITY,
}

SECURITY_RE = Sieved(
    r"\bCVE-\d{4}-\d+|\bvulnerab\w*|(?<![\w-])security(?![\w-])|\bRCE\b|\bXSS\b|\bCSRF\b"
    r"|(?:\b|(?<=no))(?:sql|command|shell|os|header|crlf|template|html|script|ldap|xml|xpath"
    r"|code|prompt|argument|log|jndi|csv|formula|expression|object)[\s-]injection\b"
    r"|\bSSRF\b|\b(?:buffer|heap|integer)[ -]overflow\b|\bpath traversal\b"
    r"|\barbitrary (?:code|file)\b|\bremote code execution\b|\bprivilege escalation\b"
    r"|\bauth(?:entication|orization)? bypass\b|\bGHSA-[\w-]+|\bslowloris\b"
    r"|\bdenial[- ]of[- ]service\b",
    ("cve-", "vulnerab", "security", "injection", "rce", "xss", "csrf", "ssrf", "overflow",
     "path traversal", "arbitrary ", "remote code execution", "privilege escalation",
     " bypass", "ghsa-", "slowloris", "denial"),
    re.IGNORECASE,
)  # fmt: skip

# code, a path (``fastapi/security/oauth2.py``, ``security/``, ``./x``; not "XSS/CSRF"), and
# words in quotes: a mention ("… ('SQL injection', 'security fix') reads as …", "the
# “security” label", 「SQL injection」), not a claim. A straight quote opens after no letter
# or digit and closes before none ("don't", "users' …" open nothing).
_MENTIONED = re.compile(
    r"`[^`]*`|\S*/\S*\.\w{1,5}\b\S*|\S+/(?=\s|$)|(?<!\S)\.{0,2}/\S+"
    r"|(?<!\w)(?:'[^'\n]+'|\"[^\"\n]+\")(?!\w)|‘[^’\n]+’|“[^”\n]+”|「[^」\n]+」|『[^』\n]+』"
)
# git's own titles around another commit's title (Revert "…", Reapply "…"): its claim
_REWRAPPED = re.compile(r'^(?:Revert|Reapply|Reland)\s+"(.+)"', re.M)
# what makes the bare word "security" news of a fix (not fastapi's "security scheme", uv's
# "security review", prometheus' "OSSF security insight")
_SECURITY_NEWS = re.compile(
    r"security[\s-](?:fix|fixes|fixed|issues?|vulnerabilit\w*|bugs?|flaws?|holes?|advisor\w*"
    r"|patch\w*|release|updates?|problems?|risks?|harden\w*|enhancements?|improvements?"
    r"|concerns?|exposures?|hotfix\w*)\b",
    re.IGNORECASE,
)
_SECURITY_PREFIX = re.compile(r"\W*security\s*:", re.IGNORECASE)  # "🔒 Security: …"
_WORD = re.compile(r"\w")
_FIX_WORDS = re.compile(r"\b(?:fix\w*|prevent\w*|patch\w*|mitigat\w*|address\w*|resolv\w*)\b", re.I)
NOT_A_FIX = frozenset(
    {
        ChangeType.FEATURE,
        ChangeType.REFACTOR,
        ChangeType.PERFORMANCE,
        ChangeType.DOCUMENTATION,
        ChangeType.TEST,
        ChangeType.CI_BUILD,
    }
)
"""What a title states when its "vulnerabilities" are what a feature is about (uv's ``uv
audit``: "add context/warnings for ignored vulnerabilities"), not what it fixes."""


def security_words(text: str, stated: ChangeType | None = None) -> list[str]:
    """The words of ``text`` that say it fixes a vulnerability (:data:`SECURITY_RE`), each
    once, without what it writes as code, as a path (fastapi's `fastapi/security/
    oauth2.py`, `Security()`) or in quotes (a mention: "'SQL injection' reads as …"). The
    bare word "security" counts as a tag, a scope or a prefix (``[Security]``,
    ``fix(security):``, ``(security)``, "🔒 Security: …"), in capitals (a bot's
    "[SECURITY]") or as news of a fix ("security fix", "security issue", "security
    hardening": not "security scheme"). "vulnerability" does not where the title states the
    ``stated`` type of no fix (:data:`NOT_A_FIX`: "add …") and says no "fix", "prevent",
    "patch", "mitigate", "address" or "resolve"."""
    if not SECURITY_RE.may_match(text):
        return []
    bare = _MENTIONED.sub(" ", _REWRAPPED.sub(r"\1", text))
    about = about_vulnerabilities(bare, stated)
    found: list[str] = []
    for m in SECURITY_RE.finditer(bare):
        word = m.group(0)
        if about and word.lower().startswith("vulnerab"):
            continue
        if word.lower() == "security" and not (
            word.isupper()
            or _SECURITY_NEWS.match(bare, m.start())
            or (bare[m.start() - 1 : m.start()], bare[m.end() : m.end() + 1]) in _ENCLOSED
            or (_SECURITY_PREFIX.match(bare) is not None and not _WORD.search(bare, 0, m.start()))
        ):
            continue
        found.append(word)
    return list(dict.fromkeys(found))


_ENCLOSED = {("[", "]"), ("(", ")")}


def about_vulnerabilities(text: str, stated: ChangeType | None) -> bool:
    """Whether ``text`` (a title, a message) is about vulnerabilities, not a fix of one:
    its title states a type of no fix (:data:`NOT_A_FIX`) and it says no "fix", "prevent",
    "patch", "mitigate", "address" or "resolve"."""
    return stated in NOT_A_FIX and not _FIX_WORDS.search(text)


# deprecation warnings a change handles, whoever raised them (xarray's "Address additional
# upstream deprecation warnings": NumPy's; "Fix a DeprecationWarning" reads "fix a x"),
# no deprecation of its own
WARNINGS_HANDLED = re.compile(
    r"\b(?:avoid(?:s|ed|ing)?|fix(?:es|ed|ing)?|silenc(?:e|es|ed|ing)|suppress(?:es|ed|ing)?"
    r"|hid(?:e|es|ing)|ignor(?:e|es|ed|ing)|address(?:es|ed|ing)?|handl(?:e|es|ed|ing)"
    r"|resolv(?:e|es|ed|ing)|filter(?:s|ed|ing)?|squash(?:es|ed|ing)?|quiet(?:s|ed|ing)?)"
    # (up to three words between, none a verb of its own: "The ``tojson`` filter now emits
    # a deprecation warning", "the legacy resolver now shows …" are a noun's)
    r"\s+(?:(?!(?:now|emits?|raises?|shows?|triggers?|gives?|issues?|adds?|added|is|are|was"
    r"|were|will|would|may|might|can|to|when|if)\b)[\w.-]+\s+){0,3}"
    r"deprecation\s+warnings?\b",
    re.IGNORECASE,
)

# (pattern, type) in priority order; matched against the clean title, case-insensitively
KEYWORD_RULES: tuple[tuple[re.Pattern[str], ChangeType], ...] = tuple(
    (re.compile(p, re.IGNORECASE), t)
    for p, t in (
        (r"\btypos?\b|\bspelling\b|错别字|拼写", ChangeType.DOCUMENTATION),
        (
            r"\bfix(?:es|ed|ing)?\b|\bbugs?\b|\bcrash\w*|\bregression\b|\bhotfix\b"
            r"|\bincorrect\b|\bwrong\b|\brace condition\b|\bdeadlock\b|\bhang\b"
            r"|修复|修正|崩溃|缺陷",
            ChangeType.BUGFIX,
        ),
        (
            r"\bremov(?:e|es|ed|ing) (?:the )?(?:unused|dead|redundant|duplicated?|obsolete"
            r"|usages? of)\b",
            ChangeType.REFACTOR,
        ),
        (WARNINGS_HANDLED.pattern, ChangeType.REFACTOR),
        (
            r"\bremov(?:e|es|ed|ing)\b|\bdeprecat\w*|\bdrop(?:s|ped)? support\b|\bdelete\b"
            r"|移除|弃用|下线",
            ChangeType.REMOVAL,
        ),
        (
            r"\bspeed[- ]?ups?\b|\boptimi[sz](?:e|es|ed|ation|ations)\b|\bfaster\b"
            r"|\bperformance\b|\baccelerat\w*|\blatency\b|\bthroughput\b|性能|加速|优化",
            ChangeType.PERFORMANCE,
        ),
        (
            r"\bbump(?:s|ed)?\b|\bupgrade\b.*\bto\b|\bupdate\b.*\bto v?\d|\bpin(?:s|ned|ning)?\b"
            r"|升级依赖|依赖升级|更新依赖",
            ChangeType.DEPENDENCY,
        ),
        (
            r"\bdocs?\b|\bdocumentation\b|\breadme\b|\bdocstrings?\b|文档",
            ChangeType.DOCUMENTATION,
        ),
        (r"\b(?:unit |e2e )?tests?\b|\btesting\b|测试", ChangeType.TEST),
        (
            r"\badd(?:s|ed)? support\b|\bsupports?\b|\bnew model\b|\bintroduce\w*|\bimplement\w*"
            r"|\benabl(?:e|es|ed|ing)\b|\ballow(?:s|ed|ing)?\b|\badd(?:s|ed)?\b"
            r"|新增|添加|增加|支持|引入|实现",
            ChangeType.FEATURE,
        ),
        (
            r"\brefactor\w*|\bclean ?up\b|\bmov(?:e|es|ed|ing)\b|\brenam\w*|\bsimplif\w*"
            r"|\bmigrat\w*|\bconsolidat\w*|\bstandardi[sz]\w*|\breorgani[sz]\w*"
            r"|\btype (?:hints?|coverage|annotations?)\b|\bmypy\b|重构|清理|重命名",
            ChangeType.REFACTOR,
        ),
    )
)

_TAG_RE = re.compile(r"\s*\[([^\[\]]{1,60})\]")
_AFTER_TAGS_RE = re.compile(r"^(?:[:|]\s*|[-\u2013\u2014]\s+)")
"""What separates tags from the title: ``[ROCm][Bugfix]: Only save…`` -> ``Only save…``."""
_COMPONENT_RE = re.compile(
    r"^([A-Za-z0-9_][\w.\-/]{0,40}(?:\s*,\s*[\w.\-/]{1,40}){0,3}):\s+(\S.*)$"
)
"""Go, kernel and Rust style: ``caddyhttp: mitigate …``, ``discovery/ionos: guard …``."""
_PAREN_SCOPE_RE = re.compile(r"^\(([^()]{1,40})\)\s*:\s+(\S.*)$")
_TOPIC_RE = re.compile(r"^([^:]{1,60}?):\s+(\S.*)$")
"""``Package by default: Update documentation``: a topic of a few words, then the action."""
_MERGE_PR_RE = re.compile(r"^Merge (?:pull request|PR) #(\d+) from (\S+)\s*$", re.IGNORECASE)
_MERGE_FORK_RE = re.compile(r"^Merge commit from fork\s*$", re.IGNORECASE)
_SENTENCE_TITLE = 120
_BULLET_RE = re.compile(r"^(?:[-*+]\s+|\d+[.)]\s+)")
_CONVENTIONAL_RE = re.compile(r"^([A-Za-z]+)(?:\(([^()]{0,60})\))?(!)?:\s+(.*)$", re.DOTALL)
_REVERT_RE = re.compile(r'^revert\s*[:"“]', re.IGNORECASE)
_PR_SUFFIX_RE = re.compile(r"\s*\(#(\d+)\)\s*$")


@dataclass(frozen=True)
class TitleInfo:
    """A commit title taken apart.

    ``tags`` are the bracket tags as written (leading ones, then any trailing ones such as
    ``[3/3]``), ``tag_keys`` the same normalised (lowercase, letters and digits only).
    ``clean_title`` has no leading tags, no conventional prefix, no ``(#NNN)`` suffix.
    ``subject`` is the clause that says what the commit does: the clean title without a
    component or topic prefix (``caddyhttp: mitigate …`` -> ``mitigate …``, ``Package by
    default: Update documentation`` -> ``Update documentation``); ``topic`` that prefix.
    """

    title: str
    tags: tuple[str, ...]
    tag_keys: tuple[str, ...]
    conventional_type: str | None
    conventional_scope: str | None
    breaking: bool
    is_revert: bool
    clean_title: str
    pr_number: int | None
    subject: str = ""
    topic: str | None = None


def normalise_tag(tag: str) -> str:
    """``"Model Runner V2"`` -> ``"modelrunnerv2"``, ``"CI/Build"`` -> ``"cibuild"``."""
    return "".join(ch for ch in tag.lower() if ch.isalnum())


def parse_title(title: str) -> TitleInfo:
    first_line = title.strip().splitlines()[0].strip() if title.strip() else ""
    rest = first_line
    pr_number: int | None = None
    pr = _PR_SUFFIX_RE.search(rest)
    if pr:
        pr_number = int(pr.group(1))
        rest = rest[: pr.start()].rstrip()

    tags: list[str] = []
    while m := _TAG_RE.match(rest):
        tags.append(m.group(1).strip())
        rest = rest[m.end() :]
    rest = rest.strip()
    if tags:
        rest = _AFTER_TAGS_RE.sub("", rest).strip() or rest
    scope: str | None = None
    if m := _PAREN_SCOPE_RE.match(rest):  # "[Refactor] (kv_pool): simplify …"
        scope, rest = m.group(1).strip(), m.group(2).strip()

    conv_type: str | None = None
    conv_scope: str | None = None
    breaking = False
    cm = _CONVENTIONAL_RE.match(rest)
    if cm and cm.group(1).lower() in CONVENTIONAL_TYPES:
        conv_type = cm.group(1).lower()
        conv_scope = cm.group(2).strip() if cm.group(2) is not None else None
        breaking = cm.group(3) is not None
        rest = cm.group(4).strip()

    # trailing tags like "... [3/3]" are tags too (kept in the clean title: they read well)
    trailing = re.findall(r"\[([^\[\]]{1,60})\]\s*$", rest)
    all_tags = tags + [t.strip() for t in trailing]

    is_revert = bool(_REVERT_RE.match(rest)) or conv_type == "revert"
    is_revert = is_revert or any(normalise_tag(t) in ("revert", "reverts") for t in tags)
    clean = rest or first_line
    topic, subject = _topic_and_subject(clean)
    topic = topic or scope
    return TitleInfo(
        title=first_line,
        tags=tuple(all_tags),
        tag_keys=tuple(normalise_tag(t) for t in all_tags),
        conventional_type=conv_type,
        conventional_scope=conv_scope,
        breaking=breaking,
        is_revert=is_revert,
        clean_title=clean,
        pr_number=pr_number,
        subject=subject,
        topic=topic,
    )


def _topic_and_subject(clean: str) -> tuple[str | None, str]:
    """A title's component or topic prefix, and the clause after it."""
    if m := _COMPONENT_RE.match(clean):
        return m.group(1), m.group(2).strip()
    m = _TOPIC_RE.match(clean)
    if m and len(m.group(1).split()) <= 6 and not m.group(1).rstrip().endswith(("!", "?")):
        return m.group(1).strip(), m.group(2).strip()
    return None, clean


def _first_line(title: str) -> str:
    return title.strip().splitlines()[0].strip() if title.strip() else ""


def advisory_merge(title: str) -> bool:
    """Whether a commit is GitHub's merge of a security advisory's temporary private fork:
    its title is ``Merge commit from fork`` (what the advisory's merge button writes; a pull
    request from any other fork is ``Merge pull request #N from …``)."""
    return _MERGE_FORK_RE.match(_first_line(title)) is not None


_BRANCH_TYPES = {
    "fix": ChangeType.BUGFIX,
    "bugfix": ChangeType.BUGFIX,
    "hotfix": ChangeType.BUGFIX,
    "feat": ChangeType.FEATURE,
    "feature": ChangeType.FEATURE,
    "perf": ChangeType.PERFORMANCE,
}


def merged_branch_type(title: str) -> tuple[ChangeType, str] | None:
    """The type the branch of a pull request's merge commit names, and the branch:
    ``Merge pull request #19131 from someone/fix/discovery-metric-leak`` -> a bug fix (a
    part of the branch's name after its owner whose first word is ``fix``, ``bugfix``,
    ``hotfix``, ``feat``, ``feature`` or ``perf``)."""
    m = _MERGE_PR_RE.match(_first_line(title))
    if m is None:
        return None
    branch = m.group(2)
    for part in branch.split("/")[1:]:
        word = re.split(r"[-_.]", part, maxsplit=1)[0].lower()
        if word in _BRANCH_TYPES:
            return _BRANCH_TYPES[word], branch
    return None


def effective_title(title: str, body: str) -> str:
    """The title a commit stands for: a pull request's merge commit is named by its body's
    first line (the pull request's title, ``Merge pull request #19461 from …`` ->
    ``tsdb: stabilize the XOR2 float chunk encoding (#19461)``); GitHub's ``Merge commit
    from fork`` (an advisory's private fork) by the first sentence of its message. Any other
    title as is."""
    first = _first_line(title)
    pr = _MERGE_PR_RE.match(first)
    if pr is None and not _MERGE_FORK_RE.match(first):
        return title
    paragraph: list[str] = []
    for line in body.splitlines():
        text = _BULLET_RE.sub("", line.strip()).strip()
        if not text:
            if paragraph:
                break
            continue
        if text.startswith("#") and not paragraph:
            continue
        paragraph.append(text)
        if pr is not None:  # a pull request's title is one line
            break
    if not paragraph:
        return title
    if pr is not None:
        return f"{paragraph[0]} (#{pr.group(1)})"
    sentence = re.split(r"(?<=[.!?])\s", " ".join(paragraph), maxsplit=1)[0]
    if len(sentence) > _SENTENCE_TITLE:
        cut = sentence.rfind(" ", 0, _SENTENCE_TITLE)
        sentence = sentence[: cut if cut > 0 else _SENTENCE_TITLE].rstrip(" ,;:") + "…"
    return sentence


def _highest(types: list[ChangeType]) -> ChangeType | None:
    return min(types, key=_RANK.__getitem__) if types else None


def tag_change_types(info: TitleInfo) -> list[ChangeType]:
    """Types stated by the bracket tags and the conventional prefix (unsorted, may repeat)."""
    found = [TAG_TYPES[k] for k in info.tag_keys if k in TAG_TYPES]
    if info.conventional_type is not None:
        conv = CONVENTIONAL_TYPES[info.conventional_type]
        scope = normalise_tag(info.conventional_scope or "")
        if conv in (ChangeType.REFACTOR, ChangeType.CI_BUILD) and scope in ("deps", "dep"):
            conv = ChangeType.DEPENDENCY
        found.append(conv)
    return found


def keyword_match(text: str) -> tuple[ChangeType, str] | None:
    """The first :data:`KEYWORD_RULES` entry matching ``text``: its type and the words matched."""
    for pattern, change_type in KEYWORD_RULES:
        if m := pattern.search(text):
            return change_type, m.group(0)
    return None


def keyword_change_type(text: str) -> ChangeType | None:
    """The type of the first :data:`KEYWORD_RULES` entry matching ``text``, or ``None``."""
    found = keyword_match(text)
    return found[0] if found else None


def change_type_from_title(title: str) -> ChangeType | None:
    """The change type the title states (tags, conventional prefix, revert, keywords)."""
    info = parse_title(title)
    if info.is_revert:
        return ChangeType.REVERT
    tagged = _highest(tag_change_types(info))
    if security_words(info.title, tagged):
        return ChangeType.SECURITY
    if tagged is not None:
        return tagged
    return keyword_change_type(info.clean_title)
