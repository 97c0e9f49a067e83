"""--no-radar，中文: act_release_zh's release day (shapes 2.0.0, whose changelog declares a
removal and a changed default) with the breaking-change radar off. The release commit is
still reported (medium importance, "这是一次版本发布提交"), but neither of the changelog's
two declared breaking changes is: no breaking-change section, no interface changes, and
the Act-on block, whose release line comes from them, says nothing needs action."""

import actonday

ARGS = [*actonday.args("zh"), "--no-radar"]
build = actonday.build_release
