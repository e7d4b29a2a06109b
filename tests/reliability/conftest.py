"""A throwaway PostgreSQL cluster and the site as `make serve` runs it, shared by a module's tests."""

from __future__ import annotations

import pytest

from tests.reliability.servers import Cluster, Site, postgres_bin


@pytest.fixture(scope="module")
def cluster():
    bin_dir = postgres_bin()
    assert bin_dir is not None
    made = Cluster(bin_dir)
    made.start()
    yield made
    made.remove()


@pytest.fixture(scope="module")
def site(cluster):
    served = Site(cluster.url)
    yield served
    served.stop()
