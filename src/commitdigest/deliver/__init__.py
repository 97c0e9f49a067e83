"""Delivery of finished reports: email, chat channels and a signed webhook.

``service.deliver_day`` sends a day's report to the configured channels, with retries and
per-day records; each channel (``chat_cn``, ``chat_intl``, ``email``, ``webhook``) writes the
message in its own syntax from one digest (``digest``).
"""
