"""A generic JSON webhook: POSTs the report's JSON context, optionally signed.

::

    POST <url>
    Content-Type: application/json; charset=utf-8
    User-Agent: commitdigest/<version>
    X-Commitdigest-Event: report            ("test" for `commitdigest deliver --test`)
    X-Commitdigest-Day: 2026-01-13
    X-Commitdigest-Timestamp: 1768300000     (Unix seconds, when the attempt was made)
    X-Commitdigest-Signature: sha256=<hex>   (with secret_env: HMAC-SHA256 of the body,
                                              the secret as the key)

    <the report's JSON, exactly as `--format json` writes it>

A receiver checks the signature by recomputing ``hmac.new(secret, body, sha256).hexdigest()``
over the raw body and comparing it in constant time. 2xx is success; 5xx, 429 and
time-outs are retried; other answers are not.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from commitdigest import __version__
from commitdigest.config.channels import WebhookChannel
from commitdigest.render.json_output import render_json

from .channels import Channel, DeliveryJob, Prepared, post, read_secret_env, register
from .digest import plain_text

SIGNATURE_HEADER = "X-Commitdigest-Signature"
TIMESTAMP_HEADER = "X-Commitdigest-Timestamp"


def sign_body(secret: str, body: bytes) -> str:
    """The ``X-Commitdigest-Signature`` value for ``body``."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


@register
class WebhookSender(Channel):
    type_name = "webhook"
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
            text = render_json(job.context)
        headers = {
            "User-Agent": f"commitdigest/{__version__}",
            "X-Commitdigest-Event": "test" if job.test else "report",
            "X-Commitdigest-Day": job.day,
            **self.config.headers,
        }
        return Prepared(plain_text(self.digest(job)), (text.encode("utf-8"), headers))

    async def send(self, message: Prepared) -> None:
        body, headers = message.payload
        if self.config.url_env:
            url = read_secret_env(self.config.url_env, what="webhook URL").get_secret_value()
        else:
            assert self.config.url is not None
            url = self.config.url
        headers = {**headers, TIMESTAMP_HEADER: str(int(time.time()))}
        if self.config.secret_env:
            secret = read_secret_env(self.config.secret_env, what="webhook signing secret")
            headers[SIGNATURE_HEADER] = sign_body(secret.get_secret_value(), body)
        await post(self.client, url, body, timeout=self.config.timeout_s, headers=headers)
