// The browser test of the ladder's site as `tournament ladder serve` serves
// it: opens the standing table in Debian's headless chromium via
// playwright-core, finds the table and its rows, follows a bot's link to
// its page (versions, results per opponent, recent games), opens a replay
// when the page links one, checks that no request leaves the server and no
// script error happens, and writes screenshots.  Prints TAP.
//
// Usage: node ladder.test.mjs [--shots DIR] [--rows N] URL
// Environment: CHROMIUM (default /usr/bin/chromium).
import fs from "node:fs";
import path from "node:path";
import { ok, withBrowser } from "./harness.mjs";

const args = process.argv.slice(2);
let shots = "build/screenshots", rows = 1, url = null;
for (let i = 0; i < args.length; i++) {
	if (args[i] === "--shots")
		shots = args[++i];
	else if (args[i] === "--rows")
		rows = Number(args[++i]);
	else
		url = args[i];
}
fs.mkdirSync(shots, { recursive: true });

// Checks the standing table, a bot page and a replay.
async function check(browser) {
	const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
	const errors = [], outside = [];
	const origin = new URL(url).origin;
	page.on("pageerror", e => errors.push(String(e)));
	page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
	page.on("request", r => { if (!r.url().startsWith(origin)) outside.push(r.url()); });
	const resp = await page.goto(url);
	ok(resp.status() === 200, `the standing table is served (${resp.status()})`);
	const table = page.locator("table#standings");
	ok(await table.count() === 1, "the page has the standing table");
	const head = (await table.locator("tr").first().textContent()).replace(/\s+/g, " ");
	for (const col of ["Rank", "Elo", "±", "Games", "Faults", "Last played"])
		ok(head.includes(col), `the table has the column ${col}`, head);
	const body = await table.locator("tr").count() - 1;
	ok(body >= rows, `the table has a row per version (${body} >= ${rows})`);
	const first = (await table.locator("tr").nth(1).locator("td").first().textContent()).trim();
	ok(first === "1", "the first row is rank 1", first);
	ok(await page.locator("svg#history polyline").count() >= 1,
	    "the ratings over time are drawn");
	await page.screenshot({ path: path.join(shots, "ladder-standings.png"), fullPage: true });
	const link = table.locator("tr").nth(1).locator("a").first();
	const bot = (await link.textContent()).trim();
	await link.click();
	await page.waitForLoadState();
	ok((await page.title()).includes(bot.replace(/\.v[0-9]+$/, "")),
	    `the link opens ${bot}'s page`, await page.title());
	ok(await page.locator("table.versions tr").count() >= 2, "the bot page lists its versions");
	ok(await page.locator("table.h2h tr").count() >= 2, "the bot page has its results per opponent");
	ok(await page.locator("table.games tr").count() >= 2, "the bot page has its recent games");
	await page.screenshot({ path: path.join(shots, "ladder-bot.png"), fullPage: true });
	const replay = page.locator("a.replay").first();
	if (await replay.count() === 1) {
		await replay.click();
		await page.waitForLoadState();
		ok(await page.locator("#replay-data").count() === 1, "a recent game's replay opens");
		await page.screenshot({ path: path.join(shots, "ladder-replay.png"), fullPage: true });
	}
	ok(errors.length === 0, "no script errors", errors.join("\n"));
	ok(outside.length === 0, "no request leaves the server", outside.join("\n"));
	await page.close();
}

if (url === null) {
	console.log("usage: node ladder.test.mjs [--shots DIR] [--rows N] URL");
	process.exit(2);
}
await withBrowser(async browser => {
	try {
		await check(browser);
	} catch (e) {
		ok(false, "the site can be driven", e.stack);
	}
});
