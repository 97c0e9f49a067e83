"""Delivery of finished reports: files (and, later, email and chat webhooks)."""

from commitdigest.files import ensure_writable_dir, write_text_atomic

__all__ = ["ensure_writable_dir", "write_text_atomic"]
