// The file store passes the Store contract suite whole, in temp directories.
import { runStoreContract } from '../contract/index.js'
import { makeTempStore } from '../temp-store.js'

runStoreContract('FileResultStore', () => {
  const temp = makeTempStore()
  return { store: temp.store, locator: temp.root, snapshot: () => temp.snapshot(), outsideName: temp.outside, cleanup: () => temp.cleanup() }
})
