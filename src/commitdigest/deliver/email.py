"""E-mail over SMTP: an e-mail HTML body, a plain-text alternative, the Markdown attached.

The message (``multipart/mixed``) holds a ``multipart/alternative`` — ``text/plain``
(:func:`commitdigest.render.plaintext.render_plain_text`: the whole report as plain text,
every commit title in full and as written, after the link to the full report when a base
URL is configured) and ``text/html`` (:func:`commitdigest.render.email.render_email_html`:
inline styles, no script, nothing that loads, within 100 KB: the only part shortened when
a busy day needs it) — and the Markdown as ``<day>.md`` (UTF-8). A weekly digest is sent
the same way, from its own context.
Subject: ``[commitdigest] vllm-project/vllm 2026-01-13 · 🔴4 🟡24 🟢17``.

Connections: ``security = "starttls"`` (port 587, certificate verified against the system
CAs or ``ca_file``), ``"ssl"`` (465) or ``"none"`` (plain, for a local relay or tests).
smtplib runs in a worker thread. 4xx SMTP replies, time-outs and dropped connections are
retried; 5xx replies (bad credentials, refused recipients) and certificate failures are not.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path

from commitdigest.config.channels import EmailChannel
from commitdigest.errors import DeliveryError
from commitdigest.models import ReportContext
from commitdigest.render.email import render_email_html
from commitdigest.render.markdown import render_markdown
from commitdigest.render.plaintext import render_plain_text
from commitdigest.render.weekly import render_weekly_markdown

from .channels import (
    Channel,
    DeliveryJob,
    Prepared,
    log,
    read_secret_env,
    read_secret_file,
    register,
)
from .digest import plain_text, subject


def _read(paths: dict[str, Path], fmt: str) -> str | None:
    path = paths.get(fmt)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


@register(EmailChannel)
class EmailSender(Channel):
    config: EmailChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        config = self.config
        digest = self.digest(job)
        url = digest.report_url
        paths = {} if job.test else dict(job.report_paths)
        context = job.context
        markdown = _read(paths, "md") or (
            render_markdown(context)
            if isinstance(context, ReportContext)
            else render_weekly_markdown(context)
        )
        title = subject(digest, config.subject_prefix)
        page = render_email_html(context, report_url=url)  # cut to size: less detail
        plain = render_plain_text(context, report_url=url)  # whole: every title in full

        message = EmailMessage(policy=SMTP_POLICY)
        message["Subject"] = title
        message["From"] = config.sender
        message["To"] = ", ".join(config.to)
        if config.cc:
            message["Cc"] = ", ".join(config.cc)
        message["Date"] = formatdate(localtime=True)
        domain = parseaddr(config.sender)[1].rpartition("@")[2] or "commitdigest.invalid"
        message["Message-ID"] = make_msgid("commitdigest", domain=domain)
        message.set_content(plain, subtype="plain", charset="utf-8")
        message.add_alternative(page, subtype="html", charset="utf-8")
        if config.attach_markdown:
            message.add_attachment(
                markdown, subtype="markdown", charset="utf-8", filename=f"{job.day}.md"
            )
        return Prepared(f"{title}\n{plain_text(digest)}", message)

    def payload_file(self, message: Prepared) -> tuple[str, bytes]:
        payload: EmailMessage = message.payload
        return "eml", payload.as_bytes()

    async def send(self, message: Prepared) -> None:
        password: str | None = None
        config = self.config
        if config.password_env:
            password = read_secret_env(config.password_env, what="SMTP password").get_secret_value()
        elif config.password_file:
            password = read_secret_file(
                config.password_file, what="SMTP password"
            ).get_secret_value()
        elif config.username:
            raise DeliveryError("username is set but neither password_env nor password_file")
        await asyncio.to_thread(self._send_sync, message.payload, password)

    def _send_sync(self, message: EmailMessage, password: str | None) -> None:
        config = self.config
        recipients = [_bare(a) for a in (*config.to, *config.cc)]
        host, port, timeout = config.host, config.effective_port, config.timeout_s
        try:
            context = ssl.create_default_context(
                cafile=str(config.ca_file.expanduser()) if config.ca_file else None
            )
            smtp: smtplib.SMTP
            if config.security == "ssl":
                smtp = smtplib.SMTP_SSL(host, port, timeout=timeout, context=context)
            else:
                smtp = smtplib.SMTP(host, port, timeout=timeout)
            with smtp:
                smtp.ehlo()
                if config.security == "starttls":
                    smtp.starttls(context=context)
                    smtp.ehlo()
                if config.username and password is not None:
                    smtp.login(config.username, password)
                refused = smtp.send_message(message, to_addrs=recipients)
        except smtplib.SMTPRecipientsRefused as exc:
            raise DeliveryError(
                f"SMTP server refused every recipient: {_refused(exc.recipients)}"
            ) from None
        except smtplib.SMTPNotSupportedError as exc:
            raise DeliveryError(f"SMTP server {host}:{port}: {exc}") from None
        except smtplib.SMTPResponseException as exc:
            text = (
                exc.smtp_error.decode("utf-8", "replace")
                if isinstance(exc.smtp_error, bytes)
                else str(exc.smtp_error)
            )
            what = (
                "authentication failed"
                if isinstance(exc, smtplib.SMTPAuthenticationError)
                else "refused"
            )
            raise DeliveryError(
                f"SMTP server {host}:{port} {what}: {exc.smtp_code} {' '.join(text.split())}",
                retryable=400 <= exc.smtp_code < 500,
            ) from None
        except ssl.SSLError as exc:
            raise DeliveryError(f"TLS with {host}:{port} failed: {exc.reason or exc}") from None
        except (smtplib.SMTPException, OSError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            raise DeliveryError(
                f"cannot talk to SMTP server {host}:{port}: {reason}", retryable=True
            ) from None
        if refused:
            log.warning("%s: the SMTP server refused %s", self.name, _refused(refused))


def _bare(address: str) -> str:
    return parseaddr(address)[1] or address


def _refused(recipients: dict[str, tuple[int, bytes]]) -> str:
    return ", ".join(f"{addr} ({code})" for addr, (code, _) in recipients.items())
