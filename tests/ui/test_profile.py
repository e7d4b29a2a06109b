"""The time profile on the page: the plan tree with self-time bars, shares, heat and badges, the
icicle graph, findings that point at a step, folding, escaping, the SVG downloads, and plans
without timings shown as before."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string

from analyzer import analyze
from analyzer.render.icicle import profile_document
from tests.conftest import FIXTURES
from tests.security.hostile import inert_problems
from tests.ui.conftest import read_fixture
from tests.ui.html import parse

SVG = "{http://www.w3.org/2000/svg}"
DEPENDENT = (FIXTURES / "tree" / "dependent_subquery_analyze.txt").read_text(encoding="utf-8")
HOSTILE = ["<script>alert(1)</script>", '"><svg onload=alert(3)>', "<img src=x onerror=alert(2)>"]


def render(analysis: dict, raw: str = "", **context) -> str:
    return render_to_string("analyzer/_analysis.html", {"analysis": analysis, "raw_explain": raw, **context})


def timed(*lines: tuple[int, str, str]) -> str:
    """An EXPLAIN ANALYZE tree from (depth, operation, figures) lines."""
    return "".join(f"{'    ' * depth}-> {text}  {figures}\n" for depth, text, figures in lines)


def figures(estimate: float, actual: float, last_ms: float, loops: int = 1) -> str:
    return f"(cost=1.25 rows={estimate}) (actual time={last_ms / 2}..{last_ms} rows={actual} loops={loops})"


def node(doc, path: str):
    found = doc.by_id(f"node-{path}")
    assert found is not None, path
    return found


def own_line(li):
    """The line of the tree item `li` itself (not of the steps under it)."""
    return li.find_all("span", cls="node-line")[0]


def line_text(li) -> str:
    return own_line(li).text


def icicle(markup: str, prefix: str = "") -> ET.Element:
    match = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="icicle".*?</svg>', markup, re.DOTALL)
    assert match, "no icicle graph"
    return ET.fromstring(match.group(0))


def test_tree_shows_self_time_bars_shares_heat_and_the_slowest_step():
    doc = parse(render(analyze(DEPENDENT).to_dict()))
    top = node(doc, "0")
    assert {"heat-4", "slowest"} <= top.classes
    assert top.find_all("span", cls="share")[0].text == "59.2% of the time, hottest"
    assert top.find_all("span", cls="visually-hidden")[0].text == " of the time, hottest"
    assert top.find_all("rect")[0].attrs["width"] == "59.2"
    assert top.find_all("svg", cls="share-bar")[0].attrs["aria-hidden"] == "true"
    text = line_text(top)
    for part in ("0.35 ms self", "slowest step", "est. 1 row", "actual 2 rows", "1 loop", "total 0.6 ms", "cost 0.75"):
        assert part in text, part
    lookup = node(doc, "0-1-0-0")
    assert "heat-3" in lookup.classes and "slowest" not in lookup.classes
    assert "29.8%" in line_text(lookup) and "2 loops" in line_text(lookup) and "est. 80 rows" in line_text(lookup)
    assert lookup.find_all("a")[0].attrs["href"] == "#row-1"  # the label links to its printed row
    assert lookup.find_all("span", cls="node-access")[0].text == "ref"
    assert len(doc.find_all("li", cls="slowest")) == 1


def test_never_executed_steps_say_so_and_have_no_time():
    doc = parse(render(analyze(DEPENDENT).to_dict()))
    for path in ("0-2-0", "0-2-0-0"):
        li = node(doc, path)
        line = li.find_all("span", cls="node-line")[0]
        assert [b.text for b in line.find_all("span", cls="never")] == ["never executed"]
        assert not line.find_all("span", cls="share") and not any(c.startswith("heat-") for c in li.classes)
        assert "loop" not in line.text
    assert "est. 3,000 rows" in line_text(node(doc, "0-2-0-0"))  # thousands separators
    untimed = node(doc, "0-1")  # "Select #2": no timings of its own, but it ran
    assert not own_line(untimed).find_all("span", cls="never") and not own_line(untimed).find_all("span", cls="share")


def test_estimate_badges_point_up_or_down():
    paste = timed(
        (0, "Nested loop inner join", figures(10, 1200, 9.0)),
        (1, "Table scan on a", figures(10, 1200, 2.0)),
        (1, "Index lookup on b using ix (k=a.k)", figures(500, 10, 0.005, loops=1200)),
        (1, "Index lookup on c using ix (k=a.k)", figures(1, 1.5, 0.001, loops=1200)),
    )
    doc = parse(render(analyze(paste).to_dict()))
    up = node(doc, "0-0").find_all("span", cls="factor")[0]
    assert "sev-bad" in up.classes and up.attrs["title"] == "actual rows 120 times the estimate"
    assert [s.text for s in up.find_all("span")[1:]] == ["\u2191 120x", "actual rows 120 times the estimate"]
    assert up.find_all("span")[1].attrs["aria-hidden"] == "true"
    down = node(doc, "0-1").find_all("span", cls="factor")[0]
    assert "sev-warning" in down.classes and down.find_all("span")[1].text == "\u2193 50x"
    assert not node(doc, "0-2").find_all("span", cls="factor")  # 1.5x: close enough
    assert "actual 1,200 rows" in line_text(node(doc, "0-0")) and "1,200 loops" in line_text(node(doc, "0-1"))


def test_heat_classes_follow_each_steps_share():
    doc = parse(render(analyze(DEPENDENT).to_dict()))
    levels = {"hottest": 4, "hot": 3, "warm": 2, "mild": 1, "cool": 0}
    timed_items = [li for li in doc.find_all("li", cls="node") if own_line(li).find_all("span", cls="share")]
    assert len(timed_items) == 4
    for li in timed_items:
        word = own_line(li).find_all("span", cls="share")[0].text.rsplit(", ", 1)[1]
        assert f"heat-{levels[word]}" in li.classes
    legend = doc.find_all("ul", cls="heat-legend")[0]
    assert [li.text.strip() for li in legend.find_all("li")][0] == "hottest: 40% or more of the time"


def test_profile_section_summary_graph_and_links():
    markup = render(analyze(DEPENDENT).to_dict(), DEPENDENT)
    doc = parse(markup)
    section = doc.find_all("section", cls="profile-section")[0]
    summary = section.find_all("p", cls="profile-summary")[0]
    assert summary.text.startswith("0.6 ms measured over 4 timed steps. Slowest step: Filter:")
    assert summary.find_all("a")[0].attrs["href"] == "#node-0"
    svg = icicle(markup)
    assert svg.get("aria-labelledby") == "icicle-title" and doc.by_id("icicle-title").tag == "figcaption"
    hrefs = [a.get("href") for a in svg.iter(f"{SVG}a")]
    assert len(hrefs) == 5 and all(doc.by_id(h[1:]) is not None for h in hrefs)  # every box reaches its tree node
    titles = [a.find(f"{SVG}title").text for a in svg.iter(f"{SVG}a")]
    assert any(t.startswith("Index lookup on i using idx_shop (shop_id=s.id): 0.18 ms self") for t in titles)


def test_findings_that_name_a_step_link_to_it():
    analysis = analyze(DEPENDENT).to_dict()
    analysis["findings"] = [
        {"severity": "bad", "message": "Most of the time", "rows": [], "kind": "slowest-step", "path": [0, 1, 0, 0]},
        {"severity": "warning", "message": "Two steps", "rows": [2], "kind": "x", "path": [[0, 2, 0], [9, 9], "x"]},
        {"severity": "info", "message": "Nowhere", "rows": [], "kind": "y", "path": [7]},
    ]
    doc = parse(render(analysis))
    findings = doc.find_all("section", cls="findings")[0].find_all("li")
    first = findings[0].find_all("a")
    assert [(a.attrs["href"], a.text) for a in first] == [
        ("#node-0-1-0-0", "Index lookup on i using idx_shop (shop_id=s.id)")
    ]
    second = findings[1].find_all("a")
    assert [a.attrs["href"] for a in second] == ["#row-2", "#node-0-2-0"]
    assert not findings[2].find_all("a")


def test_a_deep_and_wide_plan_folds_its_cold_branches_and_keeps_the_hot_path_open():
    lines = [(0, "Sort: t.id", figures(10, 10, 100.0)), (1, "Append", figures(25, 25, 1.0))]
    lines += [(2, f"Table scan on wide{n}", figures(1, 1, 0.01)) for n in range(25)]
    lines += [(depth, f"Filter: (hot{depth} > 0)", figures(1, 1, 90.0)) for depth in range(1, 10)]
    lines += [(10, "Table scan on hot", figures(1, 1, 80.0))]
    lines += [(depth, f"Filter: (cold{depth} > 0)", figures(1, 1, 0.02)) for depth in range(1, 10)]
    lines += [(10, "Table scan on cold", figures(1, 1, 0.01))]
    analysis = analyze(timed(*lines)).to_dict()
    analysis["findings"] = []  # folding by time alone (a finding's step opens its group: see below)
    doc = parse(render(analysis))
    wide = node(doc, "0-0").find_all("details", cls="subtree")[0]
    assert "open" not in wide.attrs
    assert wide.find_all("summary")[0].text.startswith("25 steps below: 0.25 ms self time, 0.3%")
    hot_path = "0-1" + "-0" * 9
    hot = node(doc, hot_path)
    assert "slowest" in hot.classes
    ancestors = []
    parent = hot.parent
    while parent is not None:
        if parent.tag == "details":
            ancestors.append(parent)
        parent = parent.parent
    assert len(ancestors) == 5 and all("open" in d.attrs for d in ancestors)  # folded from depth 6 on, all open
    cold = node(doc, "0-2" + "-0" * 4).find_all("details", cls="subtree")[0]
    assert "open" not in cold.attrs and cold.find_all("summary")[0].text.startswith("5 steps below")
    analysis["findings"] = [{"severity": "warning", "message": "Full scan", "rows": [], "path": [0, 0, 24]}]
    doc = parse(render(analysis))
    assert "open" in node(doc, "0-0").find_all("details", cls="subtree")[0].attrs
    assert "open" not in node(doc, "0-2" + "-0" * 4).find_all("details", cls="subtree")[0].attrs


def test_hostile_labels_stay_text_in_the_tree_the_graph_and_the_download():
    lines = [(0, f"Filter: (t.a = '{HOSTILE[0]}')", figures(1, 1, 2.0))]
    lines += [(1, f"Table scan on t {payload}", figures(1, 1, 1.0)) for payload in HOSTILE[1:]]
    paste = timed(*lines)
    analysis = analyze(paste).to_dict()
    markup = render(analysis, paste)
    own = [n for n in parse(markup).iter() if n.tag == "svg"]
    assert all(n.classes & {"icicle", "share-bar"} for n in own)  # the only <svg> elements are ours
    assert not [p for p in inert_problems(markup) if p != "injected <svg>"]
    tree_text = parse(markup).find_all("ul", cls="profiled")[0].text
    svg_text = "".join(icicle(markup).itertext())
    for payload in HOSTILE:
        assert payload in tree_text and payload in svg_text
    document = ET.fromstring(profile_document(analysis, "<b>title</b>"))
    assert not [e for e in document.iter() if e.tag.split("}")[-1] not in {"svg", "g", "rect", "text", "title", "a"}]
    assert all(payload in "".join(document.itertext()) for payload in HOSTILE)


@pytest.mark.parametrize("fixture", ["analyze_table.txt", "json_plan.txt", "union_table.txt", "vertical_prompt.txt"])
def test_plans_without_timings_look_as_before(fixture):
    paste = read_fixture(fixture)
    analysis = analyze(paste).to_dict()
    analysis.pop("profile", None)
    markup = render(analysis, paste)
    assert markup == render({**analysis, "profile": None}, paste)
    for absent in ("profile-section", "share-bar", "icicle", "Download SVG", "subtree", "tree profiled"):
        assert absent not in markup
    items = parse(markup).find_all("ul", cls="tree")[0].find_all("li")
    assert items and all(re.fullmatch(r"node-\d+(-\d+)*", li.attrs["id"]) for li in items)


def test_a_timed_plan_stored_without_a_profile_shows_the_tree_as_before():
    analysis = analyze(DEPENDENT).to_dict()
    analysis.pop("profile", None)
    doc = parse(render(analysis))
    assert not doc.find_all("section", cls="profile-section")
    assert "0.412..0.598 ms" in doc.find_all("ul", cls="tree")[0].text


def test_preview_offers_the_download_as_a_form_posting_the_paste():
    markup = render(analyze(DEPENDENT).to_dict(), DEPENDENT)
    form = parse(markup).find_all("form", cls="download-form")[0]
    assert (form.attrs["method"], form.attrs["action"]) == ("post", "/preview/profile.svg")
    field = form.find_all("input")[0]
    assert (field.attrs["type"], field.attrs["name"], field.attrs["value"]) == ("hidden", "explain", DEPENDENT)
    link = parse(render(analyze(DEPENDENT).to_dict(), DEPENDENT, profile_svg_url="/e/abc/profile.svg"))
    assert not link.find_all("form", cls="download-form")
    download = [a for a in link.find_all("a", cls="button") if a.text == "Download SVG"][0]
    assert download.attrs["href"] == "/e/abc/profile.svg" and "download" in download.attrs


def save(client, text: str, title: str = "timed") -> str:
    """Saves `text` through the form; the slug of the saved explain."""
    response = client.post("/", {"explain": text, "title": title, "expires": "1d", "visibility": "unlisted"})
    assert response.status_code == 302, response.content[:500]
    slug = re.fullmatch(r"/e/(\w+)/", response["Location"]).group(1)
    return slug


@pytest.mark.django_db
def test_permalink_shows_the_profile_and_links_its_svg(client):
    slug = save(client, DEPENDENT)
    doc = parse(client.get(f"/e/{slug}/").content)
    assert doc.find_all("section", cls="profile-section") and doc.by_id("node-0-1-0-0") is not None
    download = [a for a in doc.find_all("a") if a.text == "Download SVG"][0]
    assert download.attrs["href"] == f"/e/{slug}/profile.svg"


@pytest.mark.django_db
def test_profile_svg_of_a_saved_explain(client):
    slug = save(client, DEPENDENT, title="before <index>")
    response = client.get(f"/e/{slug}/profile.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="explain-{slug}-profile.svg"'
    assert response["X-Content-Type-Options"] == "nosniff" and "noindex" in response["X-Robots-Tag"]
    root = ET.fromstring(response.content)
    assert root.tag == f"{SVG}svg" and "before <index>: 0.6 ms" in "".join(root.itertext())
    assert client.post(f"/e/{slug}/profile.svg").status_code == 405


@pytest.mark.django_db
def test_profile_svg_of_an_unknown_explain_or_one_without_timings_is_a_404(client):
    assert client.get("/e/NoSuchSlug123/profile.svg").status_code == 404
    slug = save(client, read_fixture("analyze_table.txt"))
    response = client.get(f"/e/{slug}/profile.svg")
    assert response.status_code == 404 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert b"no measured times" in response.content


def test_profile_svg_of_a_paste(client):
    response = client.post("/preview/profile.svg", {"explain": DEPENDENT})
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="explain-profile.svg"'
    assert ET.fromstring(response.content).tag == f"{SVG}svg"
    untimed = client.post("/preview/profile.svg", {"explain": read_fixture("analyze_table.txt")})
    assert untimed.status_code == 404 and b"no measured times" in untimed.content
    assert client.post("/preview/profile.svg", {"explain": "no explain here"}).status_code == 400
    assert client.post("/preview/profile.svg", {}).status_code == 400
    assert client.get("/preview/profile.svg").status_code == 405


@pytest.mark.django_db
def test_compare_shows_measured_times_when_both_explains_have_them(client):
    after_text = DEPENDENT.replace(
        "(actual time=0.018..0.089 rows=80 loops=2)", "(actual time=0.008..0.012 rows=80 loops=2)"
    )
    after_text = after_text.replace("actual time=0.412..0.598", "actual time=0.212..0.299")
    before, after = save(client, DEPENDENT, "before"), save(client, after_text, "after")
    doc = parse(client.get(f"/compare/{before}/{after}/").content)
    figures_text = doc.find_all("section", cls="measured")[0].text
    assert "0.6 ms" in figures_text and "0.3 ms" in figures_text and "2× faster" in figures_text
    table = doc.find_all("table", cls="compare-table")[0]
    assert [th.text for th in table.find_all("th", scope="col")][-1] == "Time (before → after)"
    rows = {
        r.find_all("th")[0].text: r.find_all("td", cls="time-change")[0].text
        for r in table.find_all("tbody")[0].find_all("tr")
    }
    assert rows["i"] == "0.18 ms → became  0.024 ms (7.4× faster)"
    assert rows["x"] == "not timed"
    ids = [n.attrs["id"] for n in doc.iter() if n.attrs.get("id")]
    assert len(ids) == len(set(ids)) and doc.by_id("a-node-0-1-0-0") and doc.by_id("b-icicle-title")
    downloads = [a.attrs["href"] for a in doc.find_all("a") if a.text == "Download SVG"]
    assert downloads == [f"/e/{before}/profile.svg", f"/e/{after}/profile.svg"]
    untimed = save(client, read_fixture("analyze_table.txt"), "untimed")
    one_side = parse(client.get(f"/compare/{before}/{untimed}/").content)
    assert not one_side.find_all("section", cls="measured")
    assert "Only the before explain has measured times" in one_side.text
    assert "Time (before → after)" not in one_side.text


def test_the_contract_helper_gives_none_without_timings():
    assert analyze(read_fixture("analyze_table.txt")).to_dict()["profile"] is None


def test_a_plan_that_took_no_measurable_time_has_no_graph_and_no_slowest_step():
    paste = timed((0, "Filter: (a > 1)", figures(1, 0, 0.0)), (1, "Table scan on a", figures(10, 0, 0.0)))
    doc = parse(render(analyze(paste).to_dict()))
    section = doc.find_all("section", cls="profile-section")[0]
    assert section.find_all("p", cls="profile-summary")[0].text == "0 ms measured over 2 timed steps."
    assert not section.find_all("svg") and "Too little time was measured" in section.text
    assert not doc.find_all("li", cls="slowest") and "0%" in line_text(node(doc, "0-0"))
