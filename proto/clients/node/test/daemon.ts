// Starts the npcd binary named by NPCD_BINARY on the demo definitions of NPCD_SOURCE_DIR,
// on loopback, with a token, and stops it with SIGTERM (the daemon's graceful drain).
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";

export const TOKEN = "node-client-token";

export interface RunningDaemon {
  port: number;
  target: string;
  stop(): Promise<number | null>; // exit code
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function startDaemon(port = 0): Promise<RunningDaemon> {
  const binary = process.env.NPCD_BINARY;
  const source = process.env.NPCD_SOURCE_DIR;
  if (!binary || !source) throw new Error("set NPCD_BINARY and NPCD_SOURCE_DIR (tests/proto/clients/node_client_test.sh does)");
  const config = path.join(source, "config");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "npcd-node-"));
  const file = path.join(work, "npcd.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      listen: `127.0.0.1:${port}`,
      tick_hz: 20,
      archetypes_dir: path.join(config, "archetypes"),
      selection_trees_dir: path.join(config, "selection_trees"),
      behavior_trees_dir: path.join(config, "behavior_trees"),
      long_actions: path.join(config, "long_actions.json"),
      world: path.join(config, "demo.json"),
      status_interval_s: 0,
      shutdown_grace_s: 1,
      auth_token: TOKEN,
    }),
  );
  const child: ChildProcess = spawn(binary, ["--config", file], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`npcd did not start within 10 s:\n${log}`));
    }, 10_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      const match = /\(port (\d+)\)/.exec(log);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off("data", read);
      const listening = Number(match[1]);
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      resolve({
        port: listening,
        target: `127.0.0.1:${listening}`,
        stop: () => {
          child.kill("SIGTERM");
          return exited.finally(() => fs.rmSync(work, { recursive: true, force: true }));
        },
      });
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npcd exited ${code} before listening:\n${log}`));
    });
  });
}
