// The browser test of the ladder's site as `tournament ladder serve` serves
// it: opens the standing table in Debian's headless chromium via
// playwright-core, finds the table and its rows, the links to every page
// and the tables in play (no log of theirs linked), follows a bot's link
// to its page (versions, results per opponent, recent games), follows a
// recent game's replay link and finds that very game shown at its first
// step, opens the head-to-head page (the diagonal and pairs that never met
// told apart, a link back), checks that no request leaves the server and
// no script error happens, and writes screenshots.  Prints TAP.
//
// Usage: node ladder.test.mjs [--shots DIR] [--rows N] [--replay]
//            [--playing] URL
//   --replay   a bot page must link a replay (a ladder with match logs)
//   --playing  a table must be in play
// Environment: CHROMIUM (default /usr/bin/chromium).
import fs from "node:fs";
import path from "node:path";
import { ok, withBrowser } from "./harness.mjs";

const args = process.argv.slice(2);
let shots = "build/screenshots", rows = 1, url = null;
let needReplay = false, needPlaying = false;
const inPlay = new Set();	// the tables in play, by number
for (let i = 0; i < args.length; i++) {
	if (args[i] === "--shots")
		shots = args[++i];
	else if (args[i] === "--rows")
		rows = Number(args[++i]);
	else if (args[i] === "--replay")
		needReplay = true;
	else if (args[i] === "--playing")
		needPlaying = true;
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
	const navs = await page.locator("nav.top a").allTextContents();
	for (const want of ["Standings", "Now playing", "Ratings over time"])
		ok(navs.includes(want), `the page links ${want}`, navs.join(", "));
	ok(await page.locator("#playing").count() === 1, "the page has a now-playing section");
	await page.screenshot({ path: path.join(shots, "ladder-standings.png"), fullPage: true });
	if (needPlaying)
		await playing(page);
	await replayFromBot(page, table);
	if (navs.includes("Head to head"))
		await results(page);
	ok(errors.length === 0, "no script errors", errors.join("\n"));
	ok(outside.length === 0, "no request leaves the server", outside.join("\n"));
	await page.close();
}

// The tables in play: their bots and progress, and nothing of their logs.
async function playing(page) {
	const rows = page.locator("table#inplay tr");
	ok(await rows.count() >= 2, "a table in play is shown");
	const cells = (await rows.nth(1).locator("td").allTextContents()).map(t => t.trim());
	ok(/^[0-9]+$/.test(cells[0]) && cells[1].split(",").length >= 2 &&
	    /^[0-9]+ of [0-9]+$/.test(cells[2]),
	    "its row has the table, its bots and its games done", cells.join(" | "));
	ok(await page.locator("table#inplay a[href*='logs/']").count() === 0,
	    "no log of a table in play is linked");
	inPlay.add(cells[0]);
	const back = page.url();
	await page.goto(back.replace(/#.*$/, "") + "#playing");
	await page.screenshot({ path: path.join(shots, "ladder-playing.png") });
	await page.goto(back);
}

// Follows the first row's bot to its page, checks the page, then follows a
// recent game's replay link and finds that game at its first step.
async function replayFromBot(page, table) {
	const link = table.locator("tr").nth(1).locator("a").first();
	const bot = (await link.textContent()).trim();
	await link.click();
	await page.waitForLoadState();
	ok((await page.title()).includes(bot.replace(/\.v[0-9]+$/, "")),
	    `the link opens ${bot}'s page`, await page.title());
	ok(await page.locator("table.versions tr").count() >= 2, "the bot page lists its versions");
	ok(await page.locator("table.h2h tr").count() >= 2, "the bot page has its results per opponent");
	ok(await page.locator("table.games tr").count() >= 2, "the bot page has its recent games");
	ok(await page.locator("nav.top a", { hasText: "Standings" }).count() === 1,
	    "the bot page links the standings");
	const games = page.locator("table.games tr");
	for (let i = 1; i < await games.count(); i++) {
		const td = games.nth(i).locator("td");
		if (!inPlay.has((await td.first().textContent()).trim()))
			continue;
		ok(await td.nth(3).locator("a").count() === 0 &&
		    /in play/.test(await td.nth(3).textContent()),
		    `a game of table ${await td.first().textContent()} in play links no log`);
	}
	await page.screenshot({ path: path.join(shots, "ladder-bot.png"), fullPage: true });
	const replays = page.locator("a.replay");
	if (await replays.count() === 0) {
		ok(!needReplay, "the bot page links a replay");
		return;
	}
	// one past the first game of its log: every link opened game 0 once
	let a = replays.first();
	for (let i = 0; i < await replays.count(); i++)
		if (!/#step=0$/.test(await replays.nth(i).getAttribute("href"))) {
			a = replays.nth(i);
			break;
		}
	const row = a.locator("xpath=ancestor::tr");
	const tab = Number((await row.locator("td").nth(0).textContent()).trim());
	const game = Number((await row.locator("td").nth(1).textContent()).trim());
	const href = await a.getAttribute("href");
	ok(href.includes(`t${String(tab).padStart(6, "0")}.jsonl.html#step=`),
	    `the replay link of table ${tab} game ${game} names its log and a step`, href);
	await a.click();
	await page.waitForLoadState();
	ok(await page.locator("#replay-data").count() === 1, "a recent game's replay opens");
	const shown = Number((await page.textContent("#game-no")).trim());
	ok(shown === game, `the replay opens at game ${game} (shows game ${shown})`);
	const first = await page.evaluate(() => cur === 0 || F[cur - 1].g !== F[cur].g);
	ok(first, "at the first step of that game");
	await page.screenshot({ path: path.join(shots, "ladder-replay.png"), fullPage: true });
	await page.goBack();
	await page.locator("nav.top a", { hasText: "Standings" }).click();
	await page.waitForLoadState();
	ok(await page.locator("table#standings").count() === 1, "the bot page's link leads back to the standings");
}

// The head-to-head page: the diagonal and pairs that never met told apart,
// a link back to the standings.
async function results(page) {
	await page.locator("nav.top a", { hasText: "Head to head" }).click();
	await page.waitForLoadState();
	const n = await page.locator("table.h2h tr").count() - 1;
	ok(n >= 2 && await page.locator("table.h2h td.self").count() === n,
	    `the diagonal is marked apart (${n} players)`);
	const nm = await page.locator("table.h2h td.nm").allTextContents();
	ok(nm.every(t => t === "never met"), `pairs that never met say so (${nm.length})`);
	ok(!(await page.locator("table.h2h td").allTextContents()).includes("-"),
	    "no cell is a bare -");
	await page.screenshot({ path: path.join(shots, "ladder-results.png"), fullPage: true });
	await page.locator("a", { hasText: "Standings" }).first().click();
	await page.waitForLoadState();
	ok(await page.locator("table#standings").count() === 1, "the results page leads back to the standings");
}

if (url === null) {
	console.log("usage: node ladder.test.mjs [--shots DIR] [--rows N] [--replay] [--playing] URL");
	process.exit(2);
}
await withBrowser(async browser => {
	try {
		await check(browser);
	} catch (e) {
		ok(false, "the site can be driven", e.stack);
	}
});
