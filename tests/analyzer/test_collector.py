import gc
import threading

from analyzer import analyze
from analyzer.collector import YOUNG_THRESHOLD, fewer_collections


def test_the_threshold_is_raised_while_reading_and_put_back_after():
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
        with fewer_collections():  # nested, as parse() runs inside analyze()
            assert gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
        assert gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)
    assert gc.get_threshold() == before
    analyze("id\tselect_type\ttable\ttype\tpossible_keys\tkey\tkey_len\tref\trows\tExtra\n1\tSIMPLE\tt\tALL\tNULL\tNULL\tNULL\tNULL\t1\t\n")
    assert gc.get_threshold() == before


def test_the_last_reading_to_end_puts_the_threshold_back():
    before = gc.get_threshold()
    started, release = threading.Event(), threading.Event()

    def other() -> None:
        with fewer_collections():
            started.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    thread.start()
    started.wait(5)
    with fewer_collections():
        pass
    assert gc.get_threshold()[0] == max(before[0], YOUNG_THRESHOLD)  # the other reading still runs
    release.set()
    thread.join(5)
    assert gc.get_threshold() == before


def test_collection_turned_off_stays_off():
    before = gc.get_threshold()
    gc.set_threshold(0)
    try:
        with fewer_collections():
            assert gc.get_threshold()[0] == 0
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
