import { MemoryStore } from "../../../runtime/storage/memory-store.js";
import { runStorageSuite } from "./conformance.js";

runStorageSuite("memory", async (options) => new MemoryStore(options));
