/** Kept for `test/helpers/quickstart.ts`'s import only: the engine runner is `./engine` (`scripts/engine-sandbox.ts`). */
export { EngineRun, resource } from "./engine";
