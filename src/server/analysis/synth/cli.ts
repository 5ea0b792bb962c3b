/**
 * Command line for the synthetic game generator:
 *   npm run synth -- --seed 7 --minutes 2 --out /tmp/game.mp4 [--width 1280 --height 720 --fps 30
 *     --camera panning --view sideline --players 10 --hoops 2 --three fiba|nba|none --teams red-black
 *     --noise 1 --crf 23 --preset veryfast --script swish,rim_out,three:made,free_throw:miss
 *     --no-hoop --no-shots --set DIR]
 * Writes the video, `<name>.json` beside it and, with --set, adds/updates the clip in
 * DIR/ground_truth.json. Prints a one-line summary; errors go to stderr with exit code 1.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseGroundTruth, type GroundTruthClip, type GroundTruthFile } from '../ground-truth.js';
import { groundTruthFile, renderSyntheticGame, type ScriptEvent, type SynthOptions } from './render.js';
import type { ViewPreset } from './camera.js';
import { VIEW_PRESETS } from './camera.js';

const USAGE = `usage: npm run synth -- --out FILE.mp4 [--seed N] [--minutes M | --seconds S] [--width W --height H --fps F]
  [--camera stationary|panning] [--view ${VIEW_PRESETS.join('|')}] [--hoops 1|2] [--players 1-10]
  [--three fiba|nba|none] [--teams white-navy|red-black|yellow-purple|green-white|blue-orange]
  [--noise 0-2] [--crf N] [--preset veryfast] [--script kind[:made|:miss],...] [--no-hoop] [--no-shots] [--off-ball-motion] [--shirts] [--set DIR]`;

const SCRIPT_KINDS = new Set(['swish', 'rim_in', 'bank_in', 'rim_out', 'air_ball', 'bank_out', 'three', 'two', 'free_throw', 'made', 'miss']);

/** Parses `swish,rim_out,three:made,free_throw:miss,two:3.5` into script events. */
export function parseScript(text: string): ScriptEvent[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [kind, ...mods] = item.split(':');
      if (!SCRIPT_KINDS.has(kind)) throw new Error(`unknown script event "${kind}"`);
      const ev: ScriptEvent = { kind: kind as ScriptEvent['kind'] };
      for (const m of mods) {
        if (m === 'made') ev.made = true;
        else if (m === 'miss') ev.made = false;
        else if (m === '3') ev.points = 3;
        else if (/^\d+(\.\d+)?m$/.test(m)) ev.distance = Number(m.slice(0, -1));
        else throw new Error(`unknown script modifier "${m}" in "${item}"`);
      }
      return ev;
    });
}

function num(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n)) throw new Error(`--${name} needs a number`);
  return n;
}

/** Parses CLI arguments into render options, output path and set folder. */
export function parseArgs(argv: string[]): { options: SynthOptions; out: string; set: string | null } {
  const o: SynthOptions = {};
  let out: string | null = null;
  let set: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '--seed':
        o.seed = num('seed', next());
        break;
      case '--minutes':
        o.minutes = num('minutes', next());
        break;
      case '--seconds':
      case '--duration':
        o.durationSeconds = num('seconds', next());
        break;
      case '--out':
        out = next();
        break;
      case '--width':
        o.width = num('width', next());
        break;
      case '--height':
        o.height = num('height', next());
        break;
      case '--fps':
        o.fps = num('fps', next());
        break;
      case '--camera': {
        const v = next();
        if (v !== 'stationary' && v !== 'panning') throw new Error('--camera must be stationary or panning');
        o.camera = v;
        break;
      }
      case '--view': {
        const v = next();
        if (!VIEW_PRESETS.includes(v as ViewPreset)) throw new Error(`--view must be one of ${VIEW_PRESETS.join(', ')}`);
        o.view = v as ViewPreset;
        break;
      }
      case '--hoops': {
        const v = num('hoops', next());
        if (v !== 1 && v !== 2) throw new Error('--hoops must be 1 or 2');
        o.hoops = v;
        break;
      }
      case '--players':
        o.players = num('players', next());
        break;
      case '--three':
      case '--three-point-line': {
        const v = next();
        if (v !== 'fiba' && v !== 'nba' && v !== 'none') throw new Error('--three must be fiba, nba or none');
        o.threePointLine = v;
        break;
      }
      case '--teams':
      case '--team-colors':
        o.teamColors = next();
        break;
      case '--noise':
        o.noise = num('noise', next());
        break;
      case '--crf':
        o.crf = num('crf', next());
        break;
      case '--preset':
        o.preset = next();
        break;
      case '--script':
        o.script = parseScript(next());
        break;
      case '--no-hoop':
        o.noHoop = true;
        break;
      case '--no-shots':
        o.noShots = true;
        break;
      case '--shirts':
        o.shirts = true;
        break;
      case '--off-ball-motion':
        o.offBallMotion = true;
        break;
      case '--set':
        set = next();
        break;
      case '-h':
      case '--help':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown argument ${a}\n${USAGE}`);
    }
  }
  if (!out) throw new Error(`--out is required\n${USAGE}`);
  if (!/\.mp4$/i.test(out)) throw new Error('--out must end in .mp4');
  return { options: o, out, set };
}

/** Adds or replaces (by file name) a clip in DIR/ground_truth.json. */
export async function updateSet(dir: string, clip: GroundTruthClip): Promise<string> {
  const path = join(dir, 'ground_truth.json');
  let file: GroundTruthFile;
  try {
    file = parseGroundTruth(JSON.parse(await readFile(path, 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    file = groundTruthFile([]);
  }
  file.clips = file.clips.filter((c) => c.file !== clip.file).concat([clip]);
  file.clips.sort((a, b) => a.file.localeCompare(b.file));
  await writeFile(path, JSON.stringify(file, null, 1) + '\n');
  return path;
}

async function main(): Promise<void> {
  const { options, out, set } = parseArgs(process.argv.slice(2));
  let outPath = resolve(out);
  if (set) {
    await mkdir(resolve(set), { recursive: true });
    if (dirname(outPath) !== resolve(set)) outPath = join(resolve(set), out.split(/[\\/]/).pop()!);
  } else await mkdir(dirname(outPath), { recursive: true });
  const t0 = Date.now();
  const clip = await renderSyntheticGame(options, outPath);
  const secs = (Date.now() - t0) / 1000;
  if (set) await updateSet(resolve(set), clip);
  const pts = (clip.synthetic?.points_by_team as number[] | undefined) ?? [0, 0];
  const all = clip.attempts.length + ((clip.synthetic?.offscreen_attempts as unknown[] | undefined)?.length ?? 0);
  process.stdout.write(
    `${outPath}: ${clip.media.duration_s.toFixed(1)} s ${clip.media.width}x${clip.media.height}@${clip.media.fps}, ` +
      `${clip.n_attempts} attempts in view (${all} total), ${clip.n_made} made, points team0 ${pts[0]} team1 ${pts[1]}, ` +
      `rendered in ${secs.toFixed(1)} s (${((clip.media.frames ?? 0) / secs).toFixed(0)} fps)\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`synth: ${(e as Error).message}\n`);
  process.exit(1);
});
