"""The lab's HTTP adapter: one client, in process and over loopback, with identical results."""

import dataclasses
import json
import socket

import httpx
import pytest

from lab import DEFAULT_LAB_DIR
from lab.adapter import HttpAdapter, LabResponse
from lab.fixtures import TRANSPORT_HEADERS, fixture_paths
from lab.origins import OriginError
from lab.server import running

# Requests beyond the fixture paths themselves (queries, misses, refusals), with their status.
EXTRA_REQUESTS = [
    ("https://lab.example/debug?q=%3Cb%3Emarker%3C/b%3E", 200),
    ("https://lab.example/search?q=%3Cb%3Emarker%3C/b%3E", 200),
    ("https://lab.example/debug?q=caf%C3%A9", 200),
    ("https://LAB.EXAMPLE:443/about#section", 200),
    ("https://lab.example/no-such-page", 404),
    ("https://lab.example/staging/", 404),
    ("https://other.example/no-such-page", 404),
    ("https://lab.example:8443/", 421),
    ("https://attacker.test/", 421),
    ("https://lab.example/%2e%2e/%2e%2e/pyproject.toml", 400),
    ("https://lab.example/..%2f..%2fpyproject.toml", 400),
    ("https://lab.example/%5c..%5cpyproject.toml", 400),
    ("https://lab.example/about%00.html", 400),
]
EXTRA_URLS = [url for url, _ in EXTRA_REQUESTS]


def all_fixture_urls():
    return [f"https://{host}{path}" for host, path in fixture_paths(DEFAULT_LAB_DIR)]


def declared_headers(host, path):
    """The headers a fixture declares, read straight from its index: the expected result."""
    index = json.loads((DEFAULT_LAB_DIR / "sites" / host / "site.json").read_text(encoding="utf-8"))
    headers = index["pages"][path].get("headers", {})
    return tuple(sorted((name.lower(), value) for name, value in headers.items()))


def as_bytes(response):
    return json.dumps(dataclasses.asdict(response), sort_keys=True).encode("utf-8")


@pytest.fixture(scope="module")
def port():
    with running() as port:
        yield port


@pytest.fixture(scope="module")
def adapters(port):
    with HttpAdapter("inprocess") as in_process, HttpAdapter("http", port=port) as over_http:
        yield in_process, over_http


def test_the_fixture_pass_covers_every_page_of_both_sites():
    """A full pass visits every page that the two site indexes declare, on both hosts."""
    urls = all_fixture_urls()
    for host in ("lab.example", "other.example"):
        index = json.loads((DEFAULT_LAB_DIR / "sites" / host / "site.json").read_text(encoding="utf-8"))
        assert {f"https://{host}{path}" for path in index["pages"]} <= set(urls)
    assert len(urls) == len(set(urls)) >= 11


def test_both_modes_give_byte_identical_results_for_every_fixture_path(adapters):
    """In process and over loopback HTTP, the adapter gives byte-identical results for every fixture path of both hosts, for GET and HEAD."""
    in_process, over_http = adapters
    for url in all_fixture_urls():
        for method in ("GET", "HEAD"):
            assert as_bytes(in_process.fetch(url, method)) == as_bytes(over_http.fetch(url, method)), (method, url)


@pytest.mark.parametrize(("url", "status"), EXTRA_REQUESTS)
def test_both_modes_agree_on_queries_misses_and_refusals(adapters, url, status):
    """Queries, unknown paths, unknown hosts and traversal attempts give the same expected status and result in both modes."""
    in_process, over_http = adapters
    result = in_process.fetch(url)
    assert result.status == status
    assert as_bytes(result) == as_bytes(over_http.fetch(url))


def test_a_result_carries_exactly_the_headers_the_fixture_declared(adapters):
    """Each result's headers are exactly the fixture's declared headers, lower-cased and sorted, in both modes."""
    for mode in adapters:
        for host, path in fixture_paths(DEFAULT_LAB_DIR):
            result = mode.fetch(f"https://{host}{path}")
            assert result.headers == declared_headers(host, path), (mode.transport, host, path)


def test_headers_the_server_adds_never_reach_a_result(adapters):
    """Date, Via, Content-Length and the real server's own Server header never appear in a result."""
    _, over_http = adapters
    for url in all_fixture_urls() + EXTRA_URLS:
        names = {name for name, _ in over_http.fetch(url).headers}
        assert not names & TRANSPORT_HEADERS, url
    contact = over_http.fetch("https://lab.example/contact")
    assert "server" not in dict(contact.headers), "the fixture declares no Server header for /contact"
    assert dict(over_http.fetch("https://lab.example/").headers)["server"] == "Apache/2.4.29 (Ubuntu)"


def test_the_host_header_names_the_site_and_the_port_goes_to_the_loopback_server(adapters):
    """Over HTTP the adapter really connects to the port on 127.0.0.1 and names the lab site in the Host header."""
    for adapter in adapters:
        assert adapter.fetch("https://lab.example/about").status == 200
        assert adapter.fetch("https://other.example/about").status == 200
        assert adapter.fetch("https://lab.example:8443/about").status == 421
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        free_port = unused.getsockname()[1]
    with HttpAdapter("http", port=free_port) as nowhere, pytest.raises(httpx.ConnectError):
        nowhere.fetch("https://lab.example/about")


def test_a_result_is_a_frozen_record_of_what_was_asked_and_seen(adapters):
    """A result records the URL as asked, the status, the headers and the decoded body, and cannot be changed."""
    in_process, _ = adapters
    result = in_process.fetch("https://lab.example/debug?q=hello")
    assert isinstance(result, LabResponse)
    assert result.url == "https://lab.example/debug?q=hello"
    assert result.status == 200 and "You asked for: hello</p>" in result.body
    assert result.headers == (("content-type", "text/html; charset=utf-8"),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.status = 500


@pytest.mark.parametrize("url", ["lab.example/about", "https://lab.example@attacker.test/", "ftp://lab.example/", ""])
def test_a_url_that_names_no_origin_is_refused_before_any_request(url):
    """A URL that the lab's canonicalizer refuses raises an origin error and sends nothing."""
    with HttpAdapter("inprocess") as adapter, pytest.raises(OriginError):
        adapter.fetch(url)


@pytest.mark.parametrize(
    "arguments",
    [{"transport": "ftp"}, {"transport": "http"}, {"transport": "inprocess", "port": 8080},
     {"transport": "http", "port": 0}, {"transport": "http", "port": 8080, "lab_dir": DEFAULT_LAB_DIR}],
)
def test_an_adapter_with_a_meaningless_configuration_is_refused(arguments):
    """An adapter needs a known transport, a port only over HTTP, and a fixture folder only in process."""
    with pytest.raises(ValueError):
        HttpAdapter(**arguments)


def test_the_http_transport_trusts_no_certificate_so_tls_would_fail_closed():
    """The loopback transport skips loading the CA bundle, and its TLS context still requires a
    certificate and a matching host name while trusting none: no certificate could pass."""
    import ssl

    from lab.adapter import _no_trusted_certificates

    context = _no_trusted_certificates()
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0 and context.get_ca_certs() == []
