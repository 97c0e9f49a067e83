"""E-mail delivery against a local SMTP server (aiosmtpd on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import re
import socket
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from fake_receivers import SmtpServer, busy_day, channel_config, self_signed_cert, server_tls
from markupsafe import escape

from commitdigest.deliver.service import DeliveryResult, deliver_day
from commitdigest.render.markdown import render_markdown
from commitdigest.render.plaintext import render_plain_text

PASSWORD = "smtp-Pa55word-never-shown"


def _email(server: SmtpServer, **fields: Any) -> Any:
    base: dict[str, Any] = {
        "name": "mail",
        "type": "email",
        "host": server.host,
        "port": server.port,
        "security": "none",
        "sender": "Commitdigest <digest@example.org>",
        "to": ["alice@example.org", "Bob <bob@example.org>"],
        "cc": ["carol@example.org"],
    }
    return channel_config(**{**base, **fields})


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")  # SMTP carries lines ending CRLF


def _send(context: Any, config: Any, **kwargs: Any) -> DeliveryResult:
    (result,) = asyncio.run(deliver_day(context, [config], None, **kwargs))
    return result


def test_html_body_plain_alternative_markdown_attached(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SMTP_PASSWORD", PASSWORD)
    context = busy_day(4)
    markdown = render_markdown(context)
    md_file = tmp_path / "2026-01-13.md"
    md_file.write_text(markdown, encoding="utf-8")
    with SmtpServer(username="digest", password=PASSWORD) as server:
        config = _email(server, username="digest", password_env="SMTP_PASSWORD")
        result = _send(context, config, report_paths={"md": md_file})
        assert result.status == "sent", result
        (mail,) = server.messages
    assert server.logins == [("digest", True)]
    assert sorted(mail.rcpt_tos) == ["alice@example.org", "bob@example.org", "carol@example.org"]
    message = mail.message
    assert message["Subject"] == "[commitdigest] org/repo0 2026-01-13 · 🔴4 🟡1 🟢1"
    assert message["To"] == "alice@example.org, Bob <bob@example.org>"
    assert message["Cc"] == "carol@example.org"
    assert message.get_content_type() == "multipart/mixed"
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert isinstance(plain, EmailMessage) and isinstance(html, EmailMessage)
    text = _lf(plain.get_content())
    assert text == render_plain_text(context)
    for commit in context.repositories[0].commits:  # every title in full, as written
        assert f"- {commit.title} ({commit.short_sha})\n" in text
    page = html.get_content()
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    assert "每日更新报告" in page and "<bdi>" in page
    assert "<b>&</b>" not in page  # commit text never becomes markup
    _mail_safe(page)
    (attachment,) = list(message.iter_attachments())
    assert attachment.get_filename() == "2026-01-13.md"
    assert attachment.get_content_type() == "text/markdown"
    assert attachment.get_content_charset() == "utf-8"
    assert _lf(attachment.get_content()) == markdown


def _mail_safe(page: str) -> None:
    """What mail clients show as it is: no script, no stylesheet, nothing that loads, and
    every block that sets a text colour sets its background too (light/dark safe)."""
    lower = page.lower()
    for banned in ("<script", "<style", "<link", "<img", "<iframe", "<form", "@import"):
        assert banned not in lower, banned
    assert not re.search(r"<[^>]*\son[a-z]+=", lower)  # no event handler attribute
    for style in re.findall(r'style="([^"]*)"', page):
        if "color:#" in style.replace("background-color:#", "") and "border" not in style:
            assert "background-color:" in style or "#0969da" in style, style
    assert len(page.encode("utf-8")) <= 100_000


@pytest.mark.parametrize("commits", [45, 600])
def test_email_html_is_made_for_mail_clients(commits: int) -> None:
    """A busy day's mail (45 commits) and an extreme one (600) stay within 100 KB with
    no script; the 45-commit day keeps every summary, and the body links to the site."""
    context = busy_day(commits, lang="en")
    with SmtpServer() as server:
        config = _email(server, report_base_url="https://example.org/reports/")
        result = _send(context, config)
        (mail,) = server.messages
    assert result.status == "sent", result
    html = mail.message.get_body(preferencelist=("html",))
    plain = mail.message.get_body(preferencelist=("plain",))
    assert isinstance(html, EmailMessage) and isinstance(plain, EmailMessage)
    page = html.get_content()
    _mail_safe(page)
    assert 'href="https://example.org/reports/2026-01-13.html"' in page
    assert _lf(plain.get_content()).startswith("https://example.org/reports/2026-01-13.html\n")
    repo = context.repositories[0]
    if commits == 45:
        for c in repo.commits:  # every commit, each linking to its section of the report
            assert f"https://example.org/reports/2026-01-13.html#{c.anchor}" in page
            assert escape(c.analysis.summary.split("\n")[0][:40]) in page
    else:
        assert "Full report" in page  # cut down, never cut off: the link says where the rest is
        assert page.rstrip().endswith("</html>")


def test_starttls_with_a_verified_certificate(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("cryptography")
    cert, key = self_signed_cert(tmp_path)
    monkeypatch.setenv("SMTP_PASSWORD", PASSWORD)
    with SmtpServer(username="u", password=PASSWORD, tls_context=server_tls(cert, key)) as server:
        config = _email(
            server,
            security="starttls",
            ca_file=str(cert),
            username="u",
            password_env="SMTP_PASSWORD",
        )
        assert _send(busy_day(1), config).status == "sent"
        untrusted = _email(server, security="starttls", username="u", password_env="SMTP_PASSWORD")
        refused = _send(busy_day(1), untrusted)
        assert len(server.messages) == 1
    assert server.logins == [("u", True)]
    # a certificate that does not verify is final: no retry, no password sent
    assert refused.status == "failed" and refused.attempts == 1
    assert refused.error is not None and "TLS" in refused.error


def test_implicit_tls(tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    cert, key = self_signed_cert(tmp_path)
    with SmtpServer(implicit_tls=server_tls(cert, key)) as server:
        result = _send(busy_day(1), _email(server, security="ssl", ca_file=str(cert)))
        assert result.status == "sent" and len(server.messages) == 1


def test_a_temporary_refusal_is_retried() -> None:
    with SmtpServer() as server:
        server.fail_next("451 4.3.0 Try again later", "452 4.3.1 Insufficient storage")
        result = _send(busy_day(1), _email(server))
        assert len(server.messages) == 1
    assert (result.status, result.attempts) == ("sent", 3)


def test_bad_credentials_are_final(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SMTP_PASSWORD", "wrong-password-value")
    with SmtpServer(username="u", password=PASSWORD) as server:
        result = _send(busy_day(1), _email(server, username="u", password_env="SMTP_PASSWORD"))
        assert server.messages == []
    assert (result.status, result.attempts) == ("failed", 1)
    assert result.error is not None and "authentication failed: 535" in result.error
    assert "wrong-password-value" not in result.error


def test_password_from_a_file(tmp_path: Path) -> None:
    secret_file = tmp_path / "smtp-password"
    secret_file.write_text(PASSWORD + "\n", encoding="utf-8")
    with SmtpServer(username="u", password=PASSWORD) as server:
        config = _email(server, username="u", password_file=str(secret_file))
        assert _send(busy_day(1), config).status == "sent"
    assert server.logins == [("u", True)]


def test_an_unreachable_server_is_retried_then_fails() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = channel_config(
        name="mail",
        type="email",
        host="127.0.0.1",
        port=port,
        security="none",
        sender="d@example.org",
        to=["a@example.org"],
        max_attempts=3,
    )
    result = _send(busy_day(1), config)
    assert (result.status, result.attempts) == ("failed", 3)
    assert result.error is not None and f"127.0.0.1:{port}" in result.error


def test_the_text_part_has_every_title_in_full_when_the_html_is_cut() -> None:
    """600 commits with long hostile titles: the HTML part is cut down to its 100 KB, the
    text part carries every title whole and literally, markup characters included."""
    context = busy_day(600, lang="en")
    repo = context.repositories[0]
    long = "fix(*core*): <b>handle</b> [the](x) `case` & @here — " + "ü" * 150
    commits = [c.model_copy(update={"title": f"{long} #{i}"}) for i, c in enumerate(repo.commits)]
    context = context.model_copy(
        update={"repositories": [repo.model_copy(update={"commits": commits})]}
    )
    with SmtpServer() as server:
        result = _send(context, _email(server, report_base_url="https://example.org/r/"))
        (mail,) = server.messages
    assert result.status == "sent", result
    plain = mail.message.get_body(preferencelist=("plain",))
    assert isinstance(plain, EmailMessage)
    text = _lf(plain.get_content())
    lines = text.splitlines()
    for commit in commits:
        assert f"- {commit.title} ({commit.short_sha})" in lines
    html = mail.message.get_body(preferencelist=("html",))
    assert isinstance(html, EmailMessage)
    assert len(html.get_content().encode("utf-8")) <= 100_000
