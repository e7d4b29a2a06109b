"""`manage.py purge_expired`: delete expired explains, leaving tombstones so their links say 410,
and the idempotency records older than 24 hours."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction

from pastebin import clock, idempotency
from pastebin.models import DeletedSlug, Explain, IdempotencyRecord

BATCH = 500


class Command(BaseCommand):
    help = (
        "Delete every explain whose expiry time has passed, and the idempotency records older than "
        "24 hours (run it from cron, e.g. hourly)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Only count what would be deleted.")

    def handle(self, *args, dry_run: bool = False, **options) -> None:
        now = clock.now()
        expired = Explain.objects.expired(now)
        records = IdempotencyRecord.objects.filter(created_at__lte=idempotency.cutoff(now))
        if dry_run:
            self.stdout.write(f"{expired.count()} expired explain(s) would be deleted.")
            self.stdout.write(f"{records.count()} expired idempotency record(s) would be deleted.")
            return
        total = 0
        while slugs := list(expired.order_by("expires_at").values_list("slug", flat=True)[:BATCH]):
            with transaction.atomic():
                DeletedSlug.objects.bulk_create(
                    [DeletedSlug(slug=slug, deleted_at=now, reason="expired") for slug in slugs], ignore_conflicts=True
                )
                Explain.objects.filter(slug__in=slugs).delete()
            total += len(slugs)
        self.stdout.write(f"Deleted {total} expired explain(s).")
        self.stdout.write(f"Deleted {records.delete()[0]} expired idempotency record(s).")
