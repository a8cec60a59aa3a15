// The team store passes the Store contract suite whole, against a real PostgreSQL server: one
// database for this file, emptied before each test; child writers open it by its URL.
import { afterAll, beforeAll } from 'vitest'
import { PostgresStore } from '../../../src/store/postgres/store.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js'
import { runStoreContract } from '../contract/index.js'

let db: TestDatabase | undefined
beforeAll(async () => {
  db = await createTestDatabase('contract')
})
afterAll(async () => {
  await db?.drop()
})

runStoreContract('PostgresStore', async () => {
  if (db === undefined) throw new Error('the test database is created before the first test')
  const database = db
  await database.truncate()
  const store = new PostgresStore({ url: database.url })
  await store.ready()
  return { store, locator: database.url, snapshot: () => database.snapshot(), cleanup: () => store.end() }
})
