'use client';

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../_lib/trpc';
import { stageLabel } from '../_lib/format';

/** Small building blocks of the dashboard: badges, states, dialogs, toasts, copy buttons. */

export function StatusBadge({ status }: { status: string }) {
  const label = { queued: 'Queued', processing: 'Processing', processed: 'Processed', failed: 'Failed' }[status] ?? status;
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {label}
    </span>
  );
}

export function ProgressCell({ status, stage, progress }: { status: string; stage: string | null; progress: number | null }) {
  if (status !== 'processing') return null;
  const pct = Math.max(0, Math.min(100, progress ?? 0));
  return (
    <div style={{ minWidth: 120 }}>
      <div className="progress" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label={`${stageLabel(stage)}: ${pct}%`}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <div className="cell-sub" style={{ marginTop: 3 }}>
        {stageLabel(stage)} · {pct}%
      </div>
    </div>
  );
}

export function Empty({ icon, title, children, action }: { icon?: ReactNode; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      {icon && <div className="icon" aria-hidden="true">{icon}</div>}
      <h2>{title}</h2>
      {children && <p style={{ maxWidth: 440 }}>{children}</p>}
      {action}
    </div>
  );
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="notice notice-danger" role="alert">
      <div className="grow">
        <strong>Could not load this.</strong>
        {errorMessage(error)}
      </div>
      {retry && (
        <button className="btn btn-sm" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ label = 'Loading…', rows = 3 }: { label?: string; rows?: number }) {
  return (
    <div className="stack" aria-busy="true" style={{ gap: 10, padding: 16 }}>
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: 18, width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}

/** A native modal dialog: Esc closes, focus is trapped by the browser. */
export function Modal({ open, onClose, title, description, children, footer }: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="modal" onClose={onClose} aria-labelledby="modal-title">
      {open && (
        <>
          <div className="modal-head">
            <h2 id="modal-title">{title}</h2>
            {description && <p>{description}</p>}
          </div>
          <div className="modal-body">{children}</div>
          {footer && <div className="modal-foot">{footer}</div>}
        </>
      )}
    </dialog>
  );
}

/** Shows a secret once (API key, webhook signing secret) with a copy button. */
export function SecretModal({ secret, onClose, title, description, testId }: {
  secret: string | null;
  onClose: () => void;
  title: string;
  description: ReactNode;
  testId?: string;
}) {
  return (
    <Modal open={secret !== null} onClose={onClose} title={title} description={description}>
      {secret && (
        <>
          <div className="secret" data-testid={testId}>
            <code>{secret}</code>
            <CopyButton text={secret} />
          </div>
          <div className="row" style={{ justifyContent: 'flex-end' }}>
            <button className="btn btn-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

/** Asks before a destructive action (revoke, delete): Cancel, or a red confirm button. */
export function ConfirmModal({ open, onClose, title, description, confirmLabel, onConfirm, pending }: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
}) {
  return (
    <Modal open={open} onClose={onClose} title={title} description={description}>
      <ModalActions onCancel={onClose} label={confirmLabel} onConfirm={onConfirm} pending={pending} danger />
    </Modal>
  );
}

/**
 * A dialog's Cancel and primary buttons, right-aligned. Without `onConfirm` the primary button
 * submits the form it sits in.
 */
export function ModalActions({ onCancel, label, onConfirm, pending, danger }: {
  onCancel: () => void;
  label: string;
  onConfirm?: () => void;
  pending?: boolean;
  danger?: boolean;
}) {
  return (
    <div className="row" style={{ justifyContent: 'flex-end' }}>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className="btn btn-primary"
        style={danger ? { background: 'var(--danger)', borderColor: 'var(--danger)' } : undefined}
        onClick={onConfirm}
        disabled={pending}
      >
        {label}
      </button>
    </div>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-sm"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          // clipboard blocked (insecure origin): select-and-copy still works on the shown text
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
}
const ToastContext = createContext<(text: string, kind?: 'info' | 'error') => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((text: string, kind: 'info' | 'error' = 'info') => {
    const id = Date.now() + Math.random();
    setToasts((t) => [...t, { id, text, kind }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), 4500);
  }, []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div className="toast-region" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.kind === 'error' ? 'toast-error' : ''}`}>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}

export const Icon = {
  sessions: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <rect x="2.5" y="4" width="15" height="12" rx="2" />
      <path d="M8.5 8v4l3.5-2z" fill="currentColor" />
    </svg>
  ),
  upload: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <path d="M10 13V3M6 7l4-4 4 4M3.5 13v3h13v-3" />
    </svg>
  ),
  billing: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <rect x="2.5" y="5" width="15" height="10.5" rx="2" />
      <path d="M2.5 8.5h15" />
    </svg>
  ),
  code: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <path d="M7 6l-4 4 4 4M13 6l4 4-4 4" />
    </svg>
  ),
  team: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <circle cx="7.5" cy="7" r="2.5" />
      <path d="M2.5 16c.6-2.6 2.5-4 5-4s4.4 1.4 5 4M13 5a2.5 2.5 0 010 5M15 12c1.3.5 2.1 1.9 2.5 4" />
    </svg>
  ),
  book: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <path d="M4 3.5h9.5a2 2 0 012 2v11H6a2 2 0 01-2-2zM4 14.5a2 2 0 012-2h9.5" />
    </svg>
  ),
  ball: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      <circle cx="10" cy="10" r="7" />
      <path d="M3 10h14M10 3v14M5 5c2.5 2 2.5 8 0 10M15 5c-2.5 2-2.5 8 0 10" />
    </svg>
  ),
  menu: (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true" width="18" height="18">
      <path d="M3 6h14M3 10h14M3 14h14" />
    </svg>
  ),
  play: (
    <svg viewBox="0 0 20 20" aria-hidden="true" width="18" height="18">
      <path d="M7 5l8 5-8 5z" fill="#111" />
    </svg>
  ),
};
