"""The same kind of day in a Chinese report, with Chinese commit text."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "zh"]


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "初始化项目",
            "2026-03-01T09:00:00+00:00",
            files={"src/app.py": "def main():\n    return 0\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "修复调度器在空队列时崩溃的问题",
            "2026-03-02T03:00:00+00:00",
            author="张伟",
            email="zw@example.com",
            body="队列为空时直接返回。",
            files={
                "src/scheduler.py": "def pick(queue):\n    if not queue:\n        return None\n    return queue[0]\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "feat: 新增缓存层",
            "2026-03-02T10:00:00+00:00",
            files={"src/cache.py": "CACHE = {}\n\n\ndef get(key):\n    return CACHE.get(key)\n"},
        ),
    )
