export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: '64px auto', padding: '0 24px', lineHeight: 1.6 }}>
      <h1 style={{ fontSize: 32, marginBottom: 8 }}>Swish</h1>
      <p>Basketball game-video analysis: highlight clips, every shot, players with box scores and team totals.</p>
      <ul>
        <li>
          <a href="/docs/api">API reference</a> (OpenAPI document at <a href="/v1/openapi.json">/v1/openapi.json</a>)
        </li>
        <li>
          <a href="/api/health">Service health</a>
        </li>
      </ul>
    </main>
  );
}
