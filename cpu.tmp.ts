import { readFileSync } from 'node:fs';
import { runFfmpeg } from './src/server/media/ffmpeg';
const cpu = () => { const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[13]) + Number(f[14])) / 100; };
const SRC = '/work/main/.data/bench/processing-game-10m-720p.mp4';
const O = '/tmp/s3chk/b';
const x = (preset: string, crf: number, maxk: number) => ['-c:v','libx264','-preset',preset,'-crf',String(crf),'-maxrate',`${maxk}k`,'-bufsize',`${maxk*2}k`,'-pix_fmt','yuv420p','-g','60','-profile:v','high','-c:a','aac','-b:a','128k','-ac','2','-movflags','+faststart','-f','mp4'];
async function m(label: string, args: string[]) { const c = cpu(); const t = performance.now(); await runFfmpeg(args); console.log(label.padEnd(40), 'cpu', (cpu()-c).toFixed(2), 'wall', ((performance.now()-t)/1000).toFixed(1)); }
const win = ['-ss','120','-t','10','-i',SRC];
await m('decode 10s window', [...win, '-f','null','-']);
for (const p of ['veryfast','superfast','ultrafast']) {
  await m(`h 1280x720 ${p}`, [...win, '-vf','scale=1280:720', ...x(p,23,3500), `${O}/h.mp4`]);
  await m(`v 404x720 crop ${p}`, [...win, '-vf','crop=404:720:400:0,scale=404:720', ...x(p,23,3500), `${O}/v.mp4`]);
  await m(`480p ${p}`, [...win, '-vf','scale=852:480', ...x(p,24,1800), `${O}/480.mp4`]);
  await m(`360p ${p}`, [...win, '-vf','scale=640:360', ...x(p,26,900), `${O}/360.mp4`]);
  await m(`240p ${p}`, [...win, '-vf','scale=426:240', ...x(p,27,500), `${O}/240.mp4`]);
  await m(`144p ${p}`, [...win, '-vf','scale=256:144', ...x(p,28,250), `${O}/144.mp4`]);
}
const s60 = ['-ss','60','-t','60','-i',SRC];
await m('decode 60s', [...s60,'-f','null','-']);
await m('session 720p 60s veryfast', [...s60,'-vf','scale=1280:720', ...x('veryfast',23,3500), `${O}/s720.mp4`]);
await m('session 360p 60s veryfast', [...s60,'-vf','scale=640:360', ...x('veryfast',26,900), `${O}/s360.mp4`]);
await m('session 360p 60s superfast', [...s60,'-vf','scale=640:360', ...x('superfast',26,900), `${O}/s360.mp4`]);
await m('session remux 60s', [...s60,'-c','copy','-movflags','+faststart', `${O}/r.mp4`]);
