#!/usr/bin/env python3
"""The web console in headless Chromium, against a real daemon on the bundled catalog.

Starts `glimpse serve --http 127.0.0.1:0 --admin-token-file FILE` on a fresh store filled from the catalog
folder, opens the console in Debian's chromium through its chromedriver (Selenium, with SE_OFFLINE so it
fetches nothing), and checks what a person would: a chosen catalog photo shows its place; "More results"
pages; the matches can be drawn; a token-less or wrong-token edit is refused and changes nothing; the
catalog browser finds and edits a place with the token; the health page shows the catalog and the latency
histogram; the tabs work from the keyboard. Screenshots go to the artefacts folder. Every wait is
bounded. Prints one line per check and closes with "console: N passed, N failed".

usage: console_test.py --glimpse BIN --catalog DIR --artefacts DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

os.environ.setdefault("SE_OFFLINE", "true")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

PHOTO = "040-eiffel-tower.jpg"
PLACE_TITLE = "Eiffel Tower"
PLACE_ID = "eiffel-tower"
SECOND_PHOTO = "060-taj-mahal.jpg"


def start_daemon(glimpse, catalog, work):
    token = os.urandom(24).hex()
    token_file = os.path.join(work, "admin-token")
    with open(os.open(token_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as handle:
        handle.write(token + "\n")
    log_path = os.path.join(work, "serve.log")
    log = open(log_path, "w")
    environment = dict(os.environ, GLIMPSE_CACHE_DIR=os.path.join(work, "cache"), XDG_DATA_HOME=os.path.join(work, "data"))
    daemon = subprocess.Popen(
        [glimpse, "serve", "--socket", os.path.join(work, "g.sock"), "--catalog", catalog,
         "--store", os.path.join(work, "catalog.sqlite"), "--http", "127.0.0.1:0", "--admin-token-file", token_file],
        stdout=log, stderr=subprocess.STDOUT, env=environment)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        text = open(log_path).read()
        match = re.search(r"http=(http://127\.0\.0\.1:\d+/)", text)
        if match and "mode=660" in text:
            return daemon, match.group(1), token, log_path
        if daemon.poll() is not None:
            raise RuntimeError("the daemon exited early:\n" + text[-3000:])
        time.sleep(0.2)
    daemon.kill()
    raise RuntimeError("the daemon did not listen within 600 s")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000", "--lang=en"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def fetch_status(driver, method, path, headers=None):
    """A request made by the page itself (same origin), as a script in it would: its status and JSON code."""
    return driver.execute_async_script(
        """const [method, path, headers, done] = arguments;
           fetch(path, {method, headers}).then(async (r) => {
             let code = null; try { code = (await r.json()).error?.code ?? null; } catch (_) {}
             done([r.status, code]);
           }).catch((e) => done([0, String(e)]));""",
        method, path, headers or {})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--glimpse", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--artefacts", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.artefacts, exist_ok=True)
    photo = os.path.abspath(os.path.join(arguments.catalog, "photos", PHOTO))
    second_photo = os.path.abspath(os.path.join(arguments.catalog, "photos", SECOND_PHOTO))

    work = tempfile.mkdtemp(prefix="glimpse-console-")
    daemon, base, token, log_path = start_daemon(arguments.glimpse, arguments.catalog, work)
    driver = browser()
    driver.set_script_timeout(60)
    wait = WebDriverWait(driver, 30)
    results = []

    def check(name, body):
        started = time.monotonic()
        try:
            body()
            results.append(True)
            print(f"  ok    {name} ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception:  # noqa: BLE001 - every failure is reported, then the next check runs
            results.append(False)
            print(f"  FAIL  {name}\n" + traceback.format_exc(), flush=True)
            driver.save_screenshot(os.path.join(arguments.artefacts, f"failed-{len(results)}.png"))

    def shot(name):
        driver.save_screenshot(os.path.join(arguments.artefacts, name))

    def text_of(selector):
        """The text of the first element matching `selector`, read in the page (never a stale reference)."""
        return driver.execute_script("return document.querySelector(arguments[0])?.innerText ?? ''", selector)

    def cards():
        return driver.find_elements(By.CSS_SELECTOR, "#results .card")

    def page_loads():
        driver.get(base)
        assert driver.title == "Glimpse console", driver.title
        wait.until(lambda d: "91 places" in d.find_element(By.ID, "status-line").text)

    def choosing_a_photo_shows_its_place():
        started = time.monotonic()
        driver.find_element(By.ID, "photo-input").send_keys(photo)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results .card h3 a"))
        first = driver.find_element(By.CSS_SELECTOR, "#results .card h3 a").text
        assert first == PLACE_TITLE, first
        badge = driver.find_element(By.CSS_SELECTOR, "#results .card .badge.accepted")
        assert badge.text == "accepted"
        assert "matched eiffel-tower" in cards()[0].find_element(By.CLASS_NAME, "reason").text
        labels = driver.find_element(By.ID, "labels").text
        assert "tower" in labels, labels
        print(f"        the title came {time.monotonic() - started:.1f} s after the photo was chosen")
        wait.until(lambda d: d.execute_script(
            "return [...document.querySelectorAll('#results img.thumb')].every(i => i.complete && i.naturalWidth > 0)"))
        shot("search.png")

    def the_line_and_more():
        def total():
            match = re.search(r"of (\d+) shown", driver.find_element(By.ID, "timings").text)
            return int(match.group(1)) if match else None
        accepted = total()
        Select(driver.find_element(By.ID, "page-size")).select_by_visible_text("3")
        driver.execute_script(
            "const s = document.getElementById('min-score'); s.value = '0'; s.dispatchEvent(new Event('input'));"
            " s.dispatchEvent(new Event('change'));")
        wait.until(lambda d: (total() or 0) > accepted and len(cards()) == 3)
        more = driver.find_element(By.ID, "more")
        more.click()
        wait.until(lambda d: len(cards()) == 6)
        assert cards()[0].find_element(By.CSS_SELECTOR, "h3 a").text == PLACE_TITLE
        for _ in range(20):
            if driver.find_elements(By.CSS_SELECTOR, "#results .card.below") or not more.is_displayed():
                break
            shown = len(cards())
            more.click()
            wait.until(lambda d: len(cards()) > shown)
        below = driver.find_elements(By.CSS_SELECTOR, "#results .card .badge.below")
        assert below and below[0].text == "below the line", "a candidate below the line is listed and marked"
        driver.execute_script("arguments[0].scrollIntoView()", below[0])
        shot("more.png")

    def matches_drawn():
        driver.find_element(By.ID, "explain-button").click()
        wait.until(lambda d: d.execute_script(
            "const i = document.querySelector('.explain img'); return i && i.complete && i.naturalWidth > 0"))
        driver.execute_script("document.querySelector('.explain img').scrollIntoView()")
        shot("explain.png")

    def a_region_is_searched():
        driver.execute_script("window.scrollTo(0, 0)")
        image = driver.find_element(By.ID, "preview-image")
        width, height = image.size["width"], image.size["height"]
        before = text_of("#timings")
        # From a quarter in to three quarters down and across: the tower's middle.
        ActionChains(driver).move_to_element_with_offset(image, -width // 4, -height // 4).click_and_hold() \
            .move_by_offset(width // 2, height // 2).release().perform()
        assert driver.find_element(By.ID, "box-overlay").is_displayed()
        assert driver.find_element(By.ID, "clear-box").is_displayed()
        wait.until(lambda d: text_of("#timings") not in ("", before) and d.find_elements(By.CSS_SELECTOR, "#results .card h3 a"))
        assert text_of("#results .card h3 a") == PLACE_TITLE
        shot("region.png")
        driver.find_element(By.ID, "clear-box").click()
        wait.until(lambda d: not d.find_element(By.ID, "box-overlay").is_displayed())

    def edits_without_the_token_are_refused():
        status, code = fetch_status(driver, "DELETE", f"/v1/places/{PLACE_ID}")
        assert (status, code) == (401, "unauthorized"), (status, code)
        status, code = fetch_status(driver, "DELETE", f"/v1/places/{PLACE_ID}", {"Authorization": "Bearer " + "x" * 32})
        assert (status, code) == (403, "bad_token"), (status, code)
        status, _ = fetch_status(driver, "GET", f"/v1/places/{PLACE_ID}")
        assert status == 200, "the place is still there"

    def catalog_browser():
        driver.find_element(By.ID, "tab-catalog").click()
        field = driver.find_element(By.ID, "text-query")
        field.send_keys("tower" + Keys.ENTER)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#entity-list button"))
        driver.find_element(By.CSS_SELECTOR, "#entity-list button").click()
        wait.until(lambda d: text_of("#entity-detail h3").startswith(PLACE_TITLE))
        collections = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#entity-detail .link-list button")]
        assert "towers" in collections, collections
        assert not driver.find_elements(By.CSS_SELECTOR, "#entity-detail form.edit-form"), "no edit form without a token"
        driver.find_element(By.XPATH, "//ul[@class='link-list']//button[text()='towers']").click()
        wait.until(lambda d: text_of("#entity-detail h3").startswith("Towers"))
        members = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#entity-detail .link-list button")]
        assert PLACE_ID in members, members
        Select(driver.find_element(By.ID, "property-type")).select_by_value("place")
        driver.find_element(By.ID, "property-search").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entity-list button")) > 1)
        shot("catalog.png")

    def editing_with_the_token():
        driver.find_element(By.CSS_SELECTOR, "#admin summary").click()
        driver.find_element(By.ID, "admin-token").send_keys(token + Keys.ENTER)
        driver.get(base + f"#place/{PLACE_ID}")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#entity-detail form.edit-form"))
        name = driver.find_element(By.ID, "edit-name")
        name.clear()
        name.send_keys("Eiffel Tower, Paris")
        driver.find_element(By.CSS_SELECTOR, "#entity-detail form.edit-form button[type=submit]").click()
        wait.until(lambda d: text_of("#entity-detail h3").startswith("Eiffel Tower, Paris"))
        shot("edit.png")
        # A second photo, from the page's own form.
        wait.until(lambda d: d.find_elements(By.ID, "add-photo"))
        driver.find_element(By.ID, "add-photo").send_keys(second_photo)
        driver.find_element(By.ID, "add-photo").find_element(By.XPATH, "..").find_element(
            By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entity-detail ul:not(.link-list) > li")) == 2)
        # Delete the place, confirming the browser's dialog: the page says so and the place is gone.
        driver.find_element(By.XPATH, "//button[text()='Delete this place']").click()
        WebDriverWait(driver, 10).until(lambda d: d.switch_to.alert).accept()
        wait.until(lambda d: text_of("#entity-detail") == "Deleted.")
        status, _ = fetch_status(driver, "GET", f"/v1/places/{PLACE_ID}")
        assert status == 404, status

    def health_page():
        driver.find_element(By.ID, "tab-health").click()
        wait.until(lambda d: "90 places" in text_of("#health-facts"))  # 91, less the one deleted
        facts = text_of("#health-facts")
        assert "Accept line" in facts and "evidence" in facts, facts
        wait.until(lambda d: "picture queries since start" in d.find_element(By.ID, "latency-summary").text)
        bars = driver.find_elements(By.CSS_SELECTOR, "#latency .bar")
        assert len(bars) >= 10, len(bars)
        shot("health.png")

    def keyboard():
        tab = driver.find_element(By.ID, "tab-health")
        tab.send_keys(Keys.ARROW_RIGHT)
        wait.until(lambda d: d.find_element(By.ID, "tab-search").get_attribute("aria-selected") == "true")
        assert driver.switch_to.active_element.get_attribute("id") == "tab-search"
        assert driver.find_element(By.ID, "search").is_displayed()
        assert not driver.find_element(By.ID, "health").is_displayed()

    try:
        check("the console loads and names the catalog", page_loads)
        check("a chosen catalog photo shows its place's title", choosing_a_photo_shows_its_place)
        check("min_score 0 lists candidates below the line; More results pages", the_line_and_more)
        check("the matches can be drawn", matches_drawn)
        check("a box dragged on the photo searches that region", a_region_is_searched)
        check("an edit without the token, or with another, is refused and changes nothing",
              edits_without_the_token_are_refused)
        check("the catalog browser finds a place, its collection and its members", catalog_browser)
        check("with the token, a place is edited, given a photo and deleted from the page", editing_with_the_token)
        check("the health page shows the catalog, the accept line and the latency histogram", health_page)
        check("the tabs move with the arrow keys", keyboard)
    finally:
        driver.quit()
        daemon.terminate()
        try:
            status = daemon.wait(timeout=60)
        except subprocess.TimeoutExpired:
            daemon.kill()
            status = "killed"
        log = open(log_path).read()
        results.append(token not in log)
        print(f"  {'ok  ' if results[-1] else 'FAIL'}  the token is not in the daemon's log (daemon exit {status})")
    passed = sum(results)
    failed = len(results) - passed
    print(f"console: {passed} passed, {failed} failed; screenshots in {arguments.artefacts}")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
