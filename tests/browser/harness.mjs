// What the browser tests share: TAP results, and Debian's headless chromium
// (CHROMIUM, default /usr/bin/chromium) started through playwright-core
// with a profile of its own, run once over a test and closed after it.
import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";

let n = 0, failed = 0;

// Records one TAP result, with its diagnostics when it failed.
export function ok(cond, what, diag) {
	n++;
	if (cond)
		console.log(`ok ${n} - ${what}`);
	else {
		failed++;
		console.log(`not ok ${n} - ${what}`);
		if (diag !== undefined)
			console.log(`# ${String(diag).replace(/\n/g, "\n# ")}`);
	}
}

// Runs body(browser) in a fresh headless chromium, then prints the plan
// and exits 1 if any result failed.
export async function withBrowser(body) {
	const exe = process.env.CHROMIUM || "/usr/bin/chromium";
	const profile = fs.mkdtempSync(os.tmpdir() + "/cardarena-chromium-");
	const browser = await chromium.launchPersistentContext(profile, {
		executablePath: exe,
		headless: true,
		args: ["--no-sandbox", "--disable-gpu", "--disable-quic",
		    "--no-first-run", "--disable-background-networking",
		    "--disable-component-update", "--disable-sync",
		    "--disable-dev-shm-usage"],
	}).catch(e => {
		console.log(`not ok 1 - chromium starts (${exe})\n# ${e}`);
		process.exit(1);
	});
	try {
		await body(browser);
	} finally {
		await browser.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
	console.log(`1..${n}`);
	process.exit(failed ? 1 : 0);
}
