// Figures 8, 9 and 10: the team store on PostgreSQL, each side by side with what it is held to, in
// this one run. A database of its own is created on the server DIGLINE_BENCH_PG_URL (else
// DIGLINE_TEST_PG_URL, else postgres://postgres@127.0.0.1:5432/postgres) names, and dropped after.
//   8. journal append per case (one committed INSERT through PostgresStore) vs a bare INSERT; COMMIT of
//      the same record bytes, and the store's own INSERT sent bare (the floor its schema sets)
//   9. the concurrency workload of figure 2 (1,000 cases × 100 ms at 32; full mode also 5,000) into
//      the team store vs the file store
//  10. listRuns of a 500-run suite in a large tenant: team store vs file store
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { concurrencyProject } from '../lib/projects.js'
import { fmt, median, pairedRatio } from '../lib/stats.js'
import { caseResult, CONFIG_HASH, createdAt, importDist, runDocument } from './common.js'
import { launch, runSummary } from './runs.js'
import { startChatServer } from './concurrency.js'

const BASE_URL = process.env.DIGLINE_BENCH_PG_URL ?? process.env.DIGLINE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

async function admin(sql) {
  const client = new pg.Client({ connectionString: BASE_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A fresh database for one figure; `drop()` removes it. */
async function benchDatabase(label) {
  const name = `digline_bench_${label}_${randomBytes(4).toString('hex')}`
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(BASE_URL)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

async function storeLibrary(install) {
  const store = await importDist(install.pkg, 'src/store/index.js')
  const { aggregate } = await importDist(install.pkg, 'src/driver/aggregate.js')
  return { ...store, aggregate }
}

function opening(journalVersion, index, cases) {
  return {
    journal_version: journalVersion,
    created_at: createdAt(index),
    started_at: createdAt(index),
    digline_version: '0.1.0',
    tenant: 'bench',
    environment: 'local',
    suite: 'append',
    config_hash: CONFIG_HASH,
    cases_digest: 'c0ffee00c0ffee00',
    artifacts: {},
    target_config: { model: 'geo-v1', temperature: 0 },
    judge_config: { scorers: [{ name: 'exact', config: { trim: false, case_insensitive: false }, pass_at: 0.5 }] },
    record_responses: false,
    git_commit: null,
    lease: { host: hostname(), boot: null, pid: process.pid, start_time: null },
    declared: { samples: 1, digests: Object.fromEntries(Array.from({ length: cases }, (_, i) => [caseResult(i).case_id, 'd'.repeat(12)])) },
  }
}

export async function journalAppend({ install, quick, log }) {
  const lib = await storeLibrary(install)
  const db = await benchDatabase('append')
  const perBlock = quick ? 100 : 250
  const blocks = quick ? 6 : 10
  const warmUp = 50
  const store = new lib.PostgresStore({ url: db.url })
  const bare = new pg.Pool({ connectionString: db.url, max: 1 })
  const observed = { target_model: 'geo-v1-2026-01', judge_models: {} }
  const side = { store: [], bare: [], schema: [] }
  try {
    await store.ready()
    await bare.query('CREATE TABLE bench_bare (seq integer PRIMARY KEY, line text NOT NULL)')
    // Both bare sides send the bytes of a real case record of the store, so the comparison is of
    // the work around the same row, not of row sizes; `schema` is the store's own INSERT (its key,
    // the foreign-key probe of its leg) sent bare, the floor under the store's append.
    const floorLeg = await store.openJournal(opening(lib.JOURNAL_VERSION, blocks + 1, warmUp), 1)
    for (let i = 0; i < warmUp; i++) await floorLeg.append({ result: caseResult(i), cause: null, observed, index: i })
    const { rows } = await bare.query(`SELECT tenant, suite, key, line FROM digline_journal_records WHERE line LIKE '%"kind":"case"%' ORDER BY seq LIMIT 1`)
    const { tenant, suite, key, line } = rows[0]
    let seq = 0
    let floorSeq = warmUp + 1
    const bareInsert = () => bare.query('INSERT INTO bench_bare (seq, line) VALUES ($1, $2)', [++seq, line])
    const schemaInsert = () =>
      bare.query('INSERT INTO digline_journal_records (tenant, suite, key, leg, seq, line) VALUES ($1, $2, $3, $4, $5, $6)', [tenant, suite, key, 1, ++floorSeq, line])
    for (let i = 0; i < warmUp; i++) {
      await bareInsert()
      await schemaInsert()
    }
    log(`journal append: ${blocks} blocks of ${perBlock} appends per side (after ${warmUp} to warm up), the order of the sides rotating`)
    const order = ['store', 'bare', 'schema']
    for (let b = 0; b < blocks; b++) {
      const journal = await store.openJournal(opening(lib.JOURNAL_VERSION, b, perBlock), 1)
      for (let k = 0; k < order.length; k++) {
        const which = order[(b + k) % order.length]
        const t = performance.now()
        for (let i = 0; i < perBlock; i++) {
          if (which === 'store') await journal.append({ result: caseResult(i), cause: null, observed, index: i })
          else if (which === 'bare') await bareInsert()
          else await schemaInsert()
        }
        side[which].push((performance.now() - t) / perBlock)
      }
      await journal.close()
      log(
        `  block ${b + 1}: PostgresStore ${fmt.ms(side.store.at(-1))}, bare INSERT ${fmt.ms(side.bare.at(-1))}, the store's INSERT sent bare ${fmt.ms(side.schema.at(-1))} per append`,
      )
    }
    await floorLeg.close()
  } finally {
    await store.end()
    await bare.end()
    await db.drop()
  }
  const ratio = pairedRatio(side.store, side.bare)
  const schema = pairedRatio(side.schema, side.bare)
  const total = fmt.int(perBlock * blocks)
  return {
    rows: [
      {
        figure: `8. journal append per case on PostgreSQL (${total} appends, each committed) vs a bare INSERT; COMMIT of the same record bytes on the same server`,
        value: `${fmt.x3(ratio)} (${fmt.ms(median(side.store))} vs ${fmt.ms(median(side.bare))} per append)`,
        goal: '≤ 1.5×',
        pass: ratio <= 1.5,
      },
      {
        figure: `8. of which the schema: the store's own INSERT of those bytes (its key, the foreign-key probe of the leg) sent bare, ÷ the bare INSERT`,
        value: `${fmt.x3(schema)} (${fmt.ms(median(side.schema))}); the store ÷ its own INSERT sent bare: ${fmt.x3(pairedRatio(side.store, side.schema))}`,
        goal: '—',
        pass: null,
      },
    ],
    raw: side,
  }
}

export async function teamConcurrency({ install, quick, log }) {
  const lib = await storeLibrary(install)
  const sizes = quick
    ? [{ N: 1000, reps: 3 }]
    : [
        { N: 1000, reps: 5 },
        { N: 5000, reps: 3 },
      ]
  const db = await benchDatabase('concurrency')
  const dir = concurrencyProject(install.root)
  const server = await startChatServer()
  const sides = sizes.map(() => ({ file: [], team: [] }))
  const store = new lib.PostgresStore({ url: db.url })
  const truncate = async () => {
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    try {
      await client.query('TRUNCATE digline_runs, digline_journal_legs, digline_journal_records, digline_removals CASCADE')
    } finally {
      await client.end()
    }
  }
  try {
    await store.ready()
    log('team store concurrency: warming up')
    await launch(install, dir, 'digline', { BENCH_N: '64', BENCH_BASE_URL: server.base })
    await launch(install, dir, 'digline', { BENCH_N: '64', BENCH_BASE_URL: server.base, DIGLINE_STORE: db.url })
    for (const [s, { N, reps }] of sizes.entries()) {
      const side = sides[s]
      for (let r = 0; r < reps; r++) {
        for (const which of r % 2 === 0 ? ['file', 'team'] : ['team', 'file']) {
          await truncate()
          await server.reset()
          const env = { BENCH_N: String(N), BENCH_BASE_URL: server.base, ...(which === 'team' ? { DIGLINE_STORE: db.url } : {}) }
          const result = await launch(install, dir, 'digline', env)
          const stats = await server.stats()
          if (stats.requests !== N) throw new Error(`${which} made ${stats.requests} calls for ${N} cases`)
          if (which === 'file') {
            const summary = runSummary(dir, 'chat')
            if (summary.results !== N || summary.legsLeft !== 0) throw new Error(`file store run incomplete: ${JSON.stringify(summary)}`)
          } else {
            const scan = await store.scanRuns('bench', 'chat')
            const left = await store.pending('bench', 'chat')
            if (scan.runs.length !== 1 || scan.runs[0].results.length !== N || left.length !== 0)
              throw new Error(`team store run incomplete: ${scan.runs.length} runs, ${left.length} journals left`)
          }
          side[which].push(result.wallMs)
          log(`  N=${N} rep ${r + 1} ${which} store: ${fmt.s(result.wallMs)}`)
        }
      }
    }
  } finally {
    await server.stop()
    await store.end()
    await db.drop()
  }
  return {
    rows: sizes.map(({ N }, s) => {
      const ratio = pairedRatio(sides[s].team, sides[s].file)
      return {
        figure: `9. concurrency, ${fmt.int(N)} cases × 1 call (100 ms) at 32: team store ÷ file store, wall time`,
        value: `${fmt.x3(ratio)} (${fmt.s(median(sides[s].team))} vs ${fmt.s(median(sides[s].file))})`,
        goal: '≤ 1.05×',
        pass: ratio <= 1.05,
      }
    }),
    raw: Object.fromEntries(sizes.map(({ N }, s) => [N, sides[s]])),
  }
}

export async function teamListing({ install, quick, tmp, log }) {
  const lib = await storeLibrary(install)
  const total = quick ? 2000 : 10_000
  const listed = 500
  const suites = total / listed
  const reps = quick ? 5 : 9
  const db = await benchDatabase('listing')
  const root = mkdtempSync(join(tmp, 'listing-'))
  const team = new lib.PostgresStore({ url: db.url })
  const file = new lib.FileResultStore({ root })
  const side = { team: [], file: [] }
  try {
    log(`listing: writing ${fmt.int(total)} runs of 20 cases over ${suites} suites into each store`)
    const docs = Array.from({ length: total }, (_, i) =>
      runDocument({
        tenant: 'bench',
        suite: `s${String(i % suites).padStart(2, '0')}`,
        index: i,
        results: Array.from({ length: 20 }, (_, c) => caseResult(c)),
        aggregate: lib.aggregate,
      }),
    )
    for (let i = 0; i < docs.length; i += 32) await Promise.all(docs.slice(i, i + 32).flatMap((doc) => [team.writeRun(doc), file.writeRun(doc)]))
    for (let r = 0; r < reps; r++) {
      for (const which of r % 2 === 0 ? ['file', 'team'] : ['team', 'file']) {
        const store = which === 'team' ? team : file
        const t = performance.now()
        const listing = await store.listRuns('bench', 's00')
        side[which].push(performance.now() - t)
        if (listing.runs.length !== listed || listing.runs.some((run) => run.refusal !== undefined)) throw new Error(`${which} store listed ${listing.runs.length} runs`)
      }
    }
  } finally {
    await team.end()
    await db.drop()
    rmSync(root, { recursive: true, force: true })
  }
  const ratio = pairedRatio(side.team, side.file)
  return {
    rows: [
      {
        figure: `10. listRuns of ${listed} runs in a ${fmt.int(total)}-run tenant: team store ÷ file store`,
        value: `${fmt.x3(ratio)} (${fmt.ms(median(side.team))} vs ${fmt.ms(median(side.file))})`,
        goal: '≤ 1× (no slower than the file store)',
        pass: ratio <= 1,
      },
    ],
    raw: side,
  }
}
