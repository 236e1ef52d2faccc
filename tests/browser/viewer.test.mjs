// The browser test of the replay viewer: opens each replay page given on the
// command line (made by bin/replay --html) in Debian's headless chromium via
// playwright-core, steps through it, checks what the page shows, and writes
// a screenshot per page.  Prints TAP.
//
// Usage: node viewer.test.mjs [--shots DIR] PAGE.html...
// Environment: CHROMIUM (default /usr/bin/chromium).
import fs from "node:fs";
import path from "node:path";
import { ok, withBrowser } from "./harness.mjs";

const args = process.argv.slice(2);
let shots = "build/screenshots";
const pages = [];
for (let i = 0; i < args.length; i++) {
	if (args[i] === "--shots")
		shots = args[++i];
	else
		pages.push(args[i]);
}
fs.mkdirSync(shots, { recursive: true });

const text = async (page, sel) => (await page.textContent(sel)).trim();

// Checks one replay page; returns nothing, records TAP lines.
async function check(browser, file) {
	const name = path.basename(file).replace(/\.html$/, "");
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
	const errors = [];
	const requests = [];
	page.on("pageerror", e => errors.push(String(e)));
	page.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
	page.on("request", r => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
	await page.goto("file://" + path.resolve(file));
	const data = JSON.parse(await page.textContent("#replay-data"));
	ok((await page.title()).includes(data.title || data.game),
	    `${name}: the title names the game`, await page.title());
	const count = Number(await text(page, "#step-count"));
	ok(count === data.frames.length - 1 && count > 0,
	    `${name}: the step count is the number of actions (${count})`);
	ok(await page.locator("#seat-select option").count() === data.players + 1,
	    `${name}: the seat selector lists the all-seeing view and every seat`);
	ok(await page.locator("#actions li[data-frame]").count() === data.frames.length,
	    `${name}: the action list has one entry per step`);

	// Step forward three times with the button, back once with the key.
	for (let i = 0; i < 3; i++)
		await page.click("#next");
	ok(await text(page, "#step-no") === "3", `${name}: three clicks on next show step 3`,
	    await text(page, "#step-no"));
	const label = await text(page, "#steplabel");
	ok(label === (data.frames[3].label || ""), `${name}: the step's label is shown`,
	    `${label} vs ${data.frames[3].label}`);
	await page.keyboard.press("ArrowLeft");
	ok(await text(page, "#step-no") === "2", `${name}: the left arrow steps back`);
	ok(await page.locator("#actions li.cur").getAttribute("data-frame") === "2",
	    `${name}: the action list follows the step`);

	// Cards are drawn as cards with suit symbols somewhere in the match.
	await page.keyboard.press("End");
	ok(await text(page, "#step-no") === String(count), `${name}: End shows the last step`);
	const ncards = await page.locator("#board .card").count();
	const suits = await page.locator("#board").textContent();
	ok(ncards > 0 || data.game === "nyse", `${name}: the table draws cards (${ncards})`);
	ok(data.game === "nyse" || /[\u2660\u2665\u2666\u2663]/.test(suits),
	    `${name}: cards carry suit symbols`);
	if (data.game === "daifugo")
		ok(/points \d+ \(this deal \d+\)/.test(suits),
		    `${name}: the table shows every seat's points`);
	else
		ok(await page.locator("#board .chips, #board .chip").count() > 0,
		    `${name}: the table draws chips or money`);
	ok(await page.locator(".result table").count() === 1,
	    `${name}: the last step shows the result`);
	const last = data.games[data.games.length - 1];
	if (last.result) {
		const cells = await page.locator(".result td:nth-child(3)").allTextContents();
		ok(JSON.stringify(cells.map(Number)) === JSON.stringify(last.result.places),
		    `${name}: the result shows the logged places`, cells.join(","));
	}
	await page.screenshot({ path: path.join(shots, name + ".png"), fullPage: true });

	// The seat selector switches to exactly what that seat's bot saw.
	await page.keyboard.press("Home");
	for (let i = 0; i < Math.min(12, count); i++)
		await page.keyboard.press("ArrowRight");
	const before = await page.textContent("#board");
	await page.selectOption("#seat-select", "1");
	const h = await text(page, "#board h2");
	ok(/^What seat 1 saw/.test(h), `${name}: seat 1's view is announced`, h);
	const raw = JSON.parse(await page.textContent("#raw-json"));
	ok(raw === null || (raw.type !== undefined && JSON.stringify(raw) ===
	    JSON.stringify(seatLine(data, Number(await text(page, "#step-no")), 1))),
	    `${name}: seat 1's view is the message its bot received`);
	ok(await page.textContent("#board") !== before, `${name}: the seat view differs from the all-seeing view`);
	if (raw && raw.view)
		ok(await page.locator("#board .table").count() === 1,
		    `${name}: seat 1's view is drawn as a table`);
	await page.screenshot({ path: path.join(shots, name + "-seat1.png"), fullPage: true });
	await page.selectOption("#seat-select", "-1");
	ok(/All-seeing/.test(await text(page, "#board h2")), `${name}: back to the all-seeing view`);

	// Faults and debug text are marked when the match has them.
	const nf = data.frames.filter(f => f.faults && f.faults.length).length;
	const nd = data.frames.filter(f => f.debug && f.debug.length).length;
	ok(await page.locator("#markers button.f").count() >= nf &&
	    await page.locator("#actions li.fault").count() === nf,
	    `${name}: ${nf} step(s) with faults are marked`);
	ok(await page.locator("#actions li.debug").count() === nd,
	    `${name}: ${nd} step(s) with debug text are marked`);
	// ... grouped by game and seat: one line per seat of a game that has
	// any, its debug text one step through (not a button per step).
	const pairs = new Set(), games = new Set();
	data.frames.forEach(f => {
		for (const x of f.debug || [])
			pairs.add(f.g + "/" + x.seat);
		if ((f.debug && f.debug.length) || (f.faults && f.faults.length))
			games.add(f.g);
	});
	ok(await page.locator("#markers .mgame").count() === games.size,
	    `${name}: the faults and debug text are grouped by game (${games.size})`);
	ok(await page.locator("#markers button.d").count() === 2 * pairs.size,
	    `${name}: debug text is stepped through per seat and game (${pairs.size})`);
	if (pairs.size > 0) {
		await page.evaluate(() => show(0));
		await page.locator("#markers button.d.next").first().click();
		const at = Number(await text(page, "#step-no"));
		const want = data.frames.findIndex(f => (f.debug || []).length > 0);
		ok(at === data.frames[want].k && await page.locator("#now .debug").count() > 0,
		    `${name}: the debug stepper goes to the first step with debug text (${at})`);
		await page.screenshot({ path: path.join(shots, name + "-debug.png"), fullPage: true });
	}
	if (nf > 0) {
		await page.locator("#markers button.f").first().click();
		ok(await page.locator("#now .fault").count() > 0,
		    `${name}: a fault marker shows the fault`);
		await page.screenshot({ path: path.join(shots, name + "-fault.png"), fullPage: true });
	}
	// The panel of each step says its events in words: no type word
	// repeated as its field ("deal deal 1", "card card 5"), no raw JSON,
	// and an event told in full and in part (nyse's take) once.
	const bad = await page.evaluate(() => {
		const out = [];
		for (let i = 0; i < F.length; i++) {
			show(i);
			const evs = [...document.querySelectorAll("#now .ev")].map(e =>
			    e.textContent.replace(/^\u2022\s*/, "").replace(/\s+/g, " "));
			for (const t of evs) {
				const w = t.split(/[ ,]+/);
				if (w[0] === w[1] || /[{"]/.test(t))
					out.push(i + ": " + t);
			}
			if (F[i].action && F[i].action.type === "take" &&
			    evs.filter(t => /^take /.test(t)).length !== 1)
				out.push(i + ": take told " + evs.filter(t => /^take /.test(t)).length + " times");
		}
		show(0);
		return out;
	});
	ok(bad.length === 0, `${name}: every step's events are in words, each once`,
	    bad.slice(0, 5).join("\n"));

	// Opened at a step: the page is not scrolled away from the table, at
	// the step with the most events or past the last (which shows the last).
	let most = 0;
	data.frames.forEach((f, i) => {
		if ((f.events || []).length > (data.frames[most].events || []).length)
			most = i;
	});
	for (const k of [most, count + 1]) {
		const p2 = await browser.newPage({ viewport: { width: 1280, height: 900 } });
		await p2.goto("file://" + path.resolve(file) + "#step=" + k);
		const st = await p2.evaluate(() => ({ y: window.scrollY,
		    step: document.getElementById("step-no").textContent,
		    board: document.getElementById("board").textContent.length }));
		ok(st.y === 0 && st.step === String(Math.min(k, count)) && st.board > 0,
		    `${name}: #step=${k} shows step ${Math.min(k, count)} with the table in sight`,
		    JSON.stringify(st));
		await p2.close();
	}
	ok(errors.length === 0, `${name}: no script errors`, errors.join("\n"));
	ok(requests.length === 0, `${name}: no network requests`, requests.join("\n"));
	await page.close();
}

// The message line the seat's bot had received at step k (as the page does).
function seatLine(data, k, s) {
	const f = data.frames[k];
	const idx = f.seen ? f.seen[s] : -1;
	if (idx === undefined || idx < 0)
		return null;
	return data.msgs[data.games[f.g].seats[s]][idx].line;
}

await withBrowser(async browser => {
	for (const p of pages) {
		try {
			await check(browser, p);
		} catch (e) {
			ok(false, `${path.basename(p)}: the page can be driven`, e.stack);
		}
	}
});
