"""`manage.py export_misread_reports`: misread reports as draft cases of the real-world corpus."""

from __future__ import annotations

import tomllib

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from pastebin.misread import file_report, toml_string
from pastebin.models import Explain, MisreadReport, MisreadStatus
from tests.analyzer.test_real_corpus import REQUIRED
from tests.pastebin.factories import explain_table

pytestmark = pytest.mark.django_db

SITE = "https://explain.example.org"
# Everything TOML must escape, and things that look like TOML.
HOSTILE_COMMENT = (
    'He said "no" \\ C:\\path\n"""\ttab \x7f \x01 \x1b[31m # not a comment\n[table]\nsource = "evil" 表 😀'
)


def export(tmp_path, *options: str) -> str:
    out = tmp_path / "cases"
    call_command("export_misread_reports", "--output", str(out), *options)
    return out


def read_case(directory, report: MisreadReport) -> tuple[bytes, dict, str]:
    toml_text = (directory / f"misread-{report.pk}.toml").read_text(encoding="utf-8")
    return (directory / f"misread-{report.pk}.txt").read_bytes(), tomllib.loads(toml_text), toml_text


def test_each_case_is_the_paste_byte_for_byte_and_a_toml_that_reads_back(tmp_path, create):
    # Saved through the API, the paste keeps its CRLF, tabs, BOM and lack of a final newline.
    paste = "\ufeffmysql> EXPLAIN SELECT 1;\r\n" + explain_table(table="Straße_表", newline="\r\n") + "\t \r\n1 row"
    explain = Explain.objects.get(slug=create(paste)["slug"])
    saved = file_report(explain.raw_explain, comment=HOSTILE_COMMENT, explain=explain)
    unsaved = file_report(explain_table(), comment="")
    out = export(tmp_path)

    data, case, _ = read_case(out, saved)
    assert data == paste.encode("utf-8") == saved.text.encode("utf-8")
    assert case == {"source": f"report:{saved.pk}", "note": HOSTILE_COMMENT}
    data, case, _ = read_case(out, unsaved)
    assert data == unsaved.text.encode("utf-8")
    assert case == {"source": f"report:{unsaved.pk}"}
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"misread-{r.pk}.{ext}" for r in (saved, unsaved) for ext in ("toml", "txt")
    )


def test_the_source_is_the_permalink_when_the_site_url_is_given(tmp_path, create):
    slug = create()["slug"]
    explain = Explain.objects.get(slug=slug)
    saved = file_report(explain.raw_explain, explain=explain)
    unsaved = file_report(explain_table())
    out = export(tmp_path, "--site-url", SITE + "/")
    assert read_case(out, saved)[1]["source"] == f"{SITE}/e/{slug}/"
    _, case, text = read_case(out, unsaved)
    assert case["source"] == f"report:{unsaved.pk}"
    assert "wants an http(s) source" in text and "without saving" in text  # why the corpus test refuses it
    without_site = read_case(export(tmp_path), saved)[2]
    assert f"/e/{slug}/: export with --site-url" in without_site


def test_the_draft_leaves_the_expectations_to_a_reader(tmp_path):
    report = file_report(explain_table(), comment="rows look wrong", anonymize_names=True)
    _, case, text = read_case(export(tmp_path), report)
    assert not set(case) >= REQUIRED, "the corpus test must refuse a case nobody has checked"
    assert '# format = "table"' in text and "# rows = 1" in text and "# partial = false" in text
    assert f'parser version "{report.parser_version}"' in text
    assert "Anonymized at the reporter's request" in text
    assert "tests/fixtures/real/<category>/" in text


def test_status_selects_the_reports_and_mark_triaged_marks_them(tmp_path):
    new = file_report(explain_table(), comment="new one")
    dismissed = file_report(explain_table(), comment="dismissed one")
    MisreadReport.objects.filter(pk=dismissed.pk).update(status=MisreadStatus.DISMISSED)

    out = export(tmp_path)
    assert sorted(p.name for p in out.iterdir()) == [f"misread-{new.pk}.toml", f"misread-{new.pk}.txt"]
    assert MisreadReport.objects.get(pk=new.pk).status == MisreadStatus.NEW

    other = tmp_path / "dismissed"
    call_command("export_misread_reports", "--output", str(other), "--status", "dismissed")
    assert {p.stem for p in other.iterdir()} == {f"misread-{dismissed.pk}"}

    export(tmp_path, "--mark-triaged")
    assert MisreadReport.objects.get(pk=new.pk).status == MisreadStatus.TRIAGED
    assert MisreadReport.objects.get(pk=dismissed.pk).status == MisreadStatus.DISMISSED


def test_options_are_checked(tmp_path):
    with pytest.raises(CommandError, match="--output"):
        call_command("export_misread_reports")
    for bad in ("explain.example.org", "ftp://explain.example.org", "https://a b", "https://"):
        with pytest.raises(CommandError, match="--site-url"):
            call_command("export_misread_reports", "--output", str(tmp_path), "--site-url", bad)
    with pytest.raises(CommandError):
        call_command("export_misread_reports", "--output", str(tmp_path), "--status", "bogus")
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("export_misread_reports", "--output", str(blocked / "cases"))


@given(st.text())
def test_toml_string_reads_back_as_itself_and_stays_on_one_line(value):
    quoted = toml_string(value)
    assert tomllib.loads(f"v = {quoted}") == {"v": value}
    assert tomllib.loads(f"# {quoted}\nv = 1") == {"v": 1}  # harmless in a comment too
