'use client';

import { useId } from 'react';
import { SCORING, SESSION_TYPES } from '../../_lib/session-options';

/** What the coach says about the video, as the form holds it ('' = not said: the API's default). */
export interface SessionOptionsValue {
  sessionType: (typeof SESSION_TYPES)[number][0];
  hasJerseys: boolean;
  numPlayers: string;
  pointSystem: (typeof SCORING)[number][0];
}

export const defaultSessionOptions: SessionOptionsValue = { sessionType: '', hasJerseys: false, numPlayers: '', pointSystem: '' };

/** The session's `options` for the create call: only what the coach set, so the API's defaults apply to the rest. */
export function toApiOptions(v: SessionOptionsValue) {
  return {
    ...(v.sessionType ? { session_type: v.sessionType } : {}),
    ...(v.hasJerseys ? { has_jerseys: true } : {}),
    // as typed: a number the API refuses (2.5, 25) comes back as its error, not dropped silently
    ...(v.numPlayers.trim() ? { num_players: Number(v.numPlayers) } : {}),
    ...(v.pointSystem ? { point_system: 1 as const } : {}),
  };
}

/** The `<option>`s of a list of [value, label] pairs. */
function Choices({ of }: { of: ReadonlyArray<readonly [string, string]> }) {
  return of.map(([v, label]) => (
    <option key={v} value={v}>
      {label}
    </option>
  ));
}

/**
 * "What was filmed": the session options that change what the analysis reports — a solo
 * practice gets one player, jerseys let it read teams, the number of players bounds them, and
 * the scoring decides points. Shared by the upload and the link forms.
 */
export function SessionOptionsFields({ value, onChange, disabled }: { value: SessionOptionsValue; onChange: (v: SessionOptionsValue) => void; disabled?: boolean }) {
  const hint = useId();
  const solo = value.sessionType === 'solo';
  return (
    <fieldset className="fieldset" disabled={disabled} aria-describedby={hint}>
      <legend>What was filmed</legend>
      <p id={hint} className="muted">
        Helps the analysis: a solo practice is reported as one player who took every shot.
      </p>
      <div className="grid-3">
        <label className="field">
          <span>Session type</span>
          <select
            className="select"
            value={value.sessionType}
            onChange={(e) => onChange({ ...value, sessionType: e.target.value as SessionOptionsValue['sessionType'], ...(e.target.value === 'solo' ? { hasJerseys: false, numPlayers: '' } : {}) })}
          >
            <Choices of={SESSION_TYPES} />
          </select>
        </label>
        <label className="field">
          <span>Players (optional)</span>
          <input
            className="input"
            type="number"
            inputMode="numeric"
            min={1}
            max={20}
            step={1}
            placeholder={solo ? '1' : 'both teams, subs included'}
            value={solo ? '' : value.numPlayers}
            disabled={solo}
            onChange={(e) => onChange({ ...value, numPlayers: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Scoring</span>
          <select className="select" value={value.pointSystem} onChange={(e) => onChange({ ...value, pointSystem: e.target.value as SessionOptionsValue['pointSystem'] })}>
            <Choices of={SCORING} />
          </select>
        </label>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={!solo && value.hasJerseys} disabled={solo} onChange={(e) => onChange({ ...value, hasJerseys: e.target.checked })} />
        Teams wear different jersey colours
      </label>
    </fieldset>
  );
}
