import pytest


def pytest_addoption(parser):
    parser.addoption("--seis-wave", default="seis-wave", help="the seis-wave executable of the same build")


@pytest.fixture
def seis_wave(request):
    return request.config.getoption("--seis-wave")
