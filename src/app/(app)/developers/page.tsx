'use client';

import { useState } from 'react';
import { AdminOnly } from '../admin-only';
import { ApiKeys } from './api-keys';
import { Events } from './events';
import { Webhooks } from './webhooks';

const TABS = [
  ['keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
] as const;
type Tab = (typeof TABS)[number][0];

export default function DevelopersPage() {
  const [tab, setTab] = useState<Tab>('keys');
  return (
    <AdminOnly>
      <div className="page">
        <div className="page-head">
          <div>
            <h1>Developers</h1>
            <p>
              Keys, webhooks and the event log of the REST API. Read the <a href="/docs/api">API reference</a>.
            </p>
          </div>
        </div>
        <div className="tabs" role="tablist" aria-label="Developer settings">
          {TABS.map(([t, label]) => (
            <button key={t} role="tab" aria-selected={tab === t} aria-controls="dev-panel" onClick={() => setTab(t)}>
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id="dev-panel">
          {tab === 'keys' ? <ApiKeys /> : tab === 'webhooks' ? <Webhooks /> : <Events />}
        </div>
      </div>
    </AdminOnly>
  );
}
