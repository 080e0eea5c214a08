"""featurelab serve in a real browser: headless Chromium driven by Selenium (Debian's chromium, chromium-driver,
python3-selenium) against a server on loopback. The page loads with Chart.js, the chart has data, a value written to a
job's metrics.jsonl during the test appears in the chart, a failed job shows its reason, and a second run overlays its
curves. Usage: FEATURELAB=… SOURCE_DIR=… python3 serve_page.py (exit 77: no browser here)."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("skipped: python3-selenium is missing (make deps installs it)")
    sys.exit(77)

FEATURELAB = os.environ["FEATURELAB"]
SWEEP = os.path.join(os.environ["SOURCE_DIR"], "tests", "data", "sweep.toml")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not os.path.exists(CHROMEDRIVER) or not shutil.which("chromium"):
    print("skipped: chromium or chromium-driver is missing (make deps installs them)")
    sys.exit(77)


def run(*args):
    subprocess.run([FEATURELAB, "-q", *args], check=True)


def main() -> int:
    work = tempfile.mkdtemp()
    server = None
    driver = None
    try:
        run("run", SWEEP, "--out", f"{work}/live", "--set", "experiment.seeds=[0]")
        run("run", SWEEP, "--out", f"{work}/other", "--set", "experiment.seeds=[0]", "--set", "optimizer.lr=0.05")
        jobs = sorted(os.listdir(f"{work}/live/jobs"))
        # Job 1 failed; job 0 not finished yet, its metrics.jsonl still growing.
        failed = f"{work}/live/jobs/{jobs[1]}"
        with open(f"{failed}/summary.json") as f:
            summary = json.load(f)
        summary.update(status="failed", error="crashed: Segmentation fault (signal 11) in model 'two-layer'")
        with open(f"{failed}/summary.json", "w") as f:
            json.dump(summary, f)
        os.remove(f"{failed}/done")
        growing = f"{work}/live/jobs/{jobs[0]}"
        os.remove(f"{growing}/done")
        os.remove(f"{growing}/summary.json")

        log = open(f"{work}/serve.log", "w+")
        server = subprocess.Popen([FEATURELAB, "serve", f"{work}/live", f"{work}/other", "--port", "0"], stdout=log,
                                  stderr=subprocess.STDOUT)
        port = None
        for _ in range(100):
            log.seek(0)
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read())
            if found:
                port = found.group(1)
                break
            time.sleep(0.1)
        assert port, "serve did not say where it listens"

        options = webdriver.ChromeOptions()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,1800"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        wait = WebDriverWait(driver, 20)
        driver.get(f"http://127.0.0.1:{port}/")
        assert driver.execute_script("return typeof Chart") == "function", "Chart.js did not load"
        points = lambda: int(driver.find_element(By.ID, "chart").get_attribute("data-points") or 0)
        wait.until(lambda d: points() > 0)
        print("the chart has data:", points(), "points, metric", Select(driver.find_element(By.ID, "metric")).first_selected_option.text)

        # The failed job's reason in the jobs table.
        wait.until(lambda d: any("Segmentation fault" in td.text for td in d.find_elements(By.CSS_SELECTOR, "#jobs td.reason")))
        print("the failed job's reason is shown")

        # A value written now appears: the mean line of width 8 gets a point at step 100.
        Select(driver.find_element(By.ID, "metric")).select_by_visible_text("accuracy.test")
        has_step = lambda step: driver.execute_script(
            "return typeof state !== 'undefined' && state.chart && state.chart.data.datasets.some(d => d.data.some(p => p.x === arguments[0]))", step)
        wait.until(lambda d: has_step(60))
        assert not has_step(100)
        with open(f"{growing}/metrics.jsonl", "a") as f:
            f.write('{"step":100,"metric":"accuracy.test","value":0.25}\n')
        start = time.monotonic()
        wait.until(lambda d: has_step(100))
        print(f"a value written during the test appeared after {time.monotonic() - start:.1f} s")

        # The second run overlays: its curves join the first's, named by run.
        before = driver.execute_script("return state.chart.data.datasets.length")
        driver.find_element(By.ID, "run-1").click()
        wait.until(lambda d: d.execute_script("return state.chart.data.datasets.length") > before)
        labels = driver.execute_script("return state.chart.data.datasets.map(d => d.label)")
        assert any(label.startswith("sweep: ") for label in labels), labels
        wait.until(lambda d: "optimizer.lr" in d.find_element(By.ID, "diff").text)
        print("the second run overlays, and the differences name optimizer.lr")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
        return 0
    finally:
        if driver:
            driver.quit()
        if server:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
