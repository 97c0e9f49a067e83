"""A generic JSON webhook: POSTs the report's JSON context, optionally signed.

::

    POST <url>
    Content-Type: application/json; charset=utf-8
    User-Agent: commitdigest/<version>
    X-Commitdigest-Event: report            ("weekly" for a weekly digest, "test" for
                                             `commitdigest deliver --test`)
    X-Commitdigest-Day: 2026-01-13           (the week, 2026-W03, for a weekly digest)
    X-Commitdigest-Timestamp: 1768300000     (Unix seconds, when the attempt was made)
    X-Commitdigest-Signature: sha256=<hex>   (with secret_env: HMAC-SHA256 of the body,
                                              the secret as the key)
    webhook-id: msg_<hex>                    (Standard Webhooks: the same for every attempt
                                              and every later retry of this message)
    webhook-timestamp: 1768300000            (Unix seconds of the attempt)
    webhook-signature: v1,<base64>           (with secret_env: HMAC-SHA256 of
                                              "<id>.<timestamp>.<body>"; a "whsec_" secret
                                              is base64, its bytes are the key)

    <the report's JSON, exactly as `--format json` writes it; a weekly digest's own JSON,
     as `weekly` writes <week>.json>

A receiver checks ``X-Commitdigest-Signature`` by recomputing
``hmac.new(secret, body, sha256).hexdigest()`` over the raw body, or — better, since it
covers the time and an id — the Standard Webhooks signature, then rejects a timestamp more
than 5 minutes old (a replay) and an id it has seen (a duplicate): docs/webhook.md has a
receiver that does both. 2xx is success; 5xx, 429 and time-outs are retried; other answers
are not.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import time

from commitdigest.config.channels import WebhookChannel
from commitdigest.models import ReportContext
from commitdigest.render.json_output import render_json
from commitdigest.render.weekly import render_weekly_json
from commitdigest.version import __version__

from .channels import Channel, DeliveryJob, Prepared, post, read_secret_env, register
from .digest import plain_text

SIGNATURE_HEADER = "X-Commitdigest-Signature"
TIMESTAMP_HEADER = "X-Commitdigest-Timestamp"


def sign_body(secret: str, body: bytes) -> str:
    """The ``X-Commitdigest-Signature`` value for ``body``."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def message_id(day: str, body: bytes) -> str:
    """The Standard Webhooks ``webhook-id``: the same for every attempt to send this
    message, so a receiver drops duplicates."""
    return "msg_" + hashlib.sha256(day.encode("utf-8") + b"\0" + body).hexdigest()[:32]


def standard_signature(secret: str, msg_id: str, timestamp: str, body: bytes) -> str:
    """The Standard Webhooks ``webhook-signature``: ``v1,<base64 HMAC-SHA256>`` of
    ``id.timestamp.body``; a ``whsec_`` secret is base64 and its bytes are the key."""
    key = secret.encode("utf-8")
    if secret.startswith("whsec_"):
        with contextlib.suppress(binascii.Error, ValueError):
            key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    signed = msg_id.encode() + b"." + timestamp.encode() + b"." + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


@register(WebhookChannel)
class WebhookSender(Channel):
    config: WebhookChannel

    def prepare(self, job: DeliveryJob) -> Prepared:
        path = job.report_paths.get("json")
        text = None
        if path is not None and not job.test:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = None
        if text is None:
            context = job.context
            text = (
                render_json(context)
                if isinstance(context, ReportContext)
                else (render_weekly_json(context))
            )
        body = text.encode("utf-8")
        event = "test" if job.test else "weekly" if job.weekly else "report"
        headers = {
            "User-Agent": f"commitdigest/{__version__}",
            "X-Commitdigest-Event": event,
            "X-Commitdigest-Day": job.day,
            "webhook-id": message_id(job.day, body),
            **self.config.headers,
        }
        return Prepared(plain_text(self.digest(job)), (body, headers))

    def payload_file(self, message: Prepared) -> tuple[str, bytes]:
        body, _ = message.payload
        return "json", body  # the body as sent; the signature headers are made at send time

    async def send(self, message: Prepared) -> None:
        body, headers = message.payload
        if self.config.url_env:
            url = read_secret_env(self.config.url_env, what="webhook URL").get_secret_value()
        else:
            assert self.config.url is not None
            url = self.config.url
        stamp = str(int(time.time()))
        headers = {**headers, TIMESTAMP_HEADER: stamp, "webhook-timestamp": stamp}
        if self.config.secret_env:
            secret = read_secret_env(self.config.secret_env, what="webhook signing secret")
            value = secret.get_secret_value()
            headers[SIGNATURE_HEADER] = sign_body(value, body)
            headers["webhook-signature"] = standard_signature(
                value, headers["webhook-id"], stamp, body
            )
        await post(self.client, url, body, timeout=self.config.timeout_s, headers=headers)
