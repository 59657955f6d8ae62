// The create-key form's fields, each with its label, hint and error. They keep no state: a refused
// submit renders them again with what was sent (`defaultValue`, `defaultChecked`), and the parts shown
// or hidden by a choice follow the checked radio through CSS.
import type { ReactNode } from 'react';

export interface ScopeOption {
  value: string;
  label: string;
  description: string;
}

/** Today (UTC, the earliest day a key may expire on) and each preset's last day, from the server. */
export interface ExpiryOptions {
  today: string;
  presets: { days: number; until: ReactNode }[];
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? <p id={id} className="field-error">{message}</p> : null;
}

export function NameField({ max, value, error }: { max: number; value?: string; error?: string }) {
  return (
    <div className="field">
      <label htmlFor="key-name">Name</label>
      <p id="key-name-hint" className="hint">Say who uses the key, e.g. “Looker Studio” or “Reporting bot”. At most {max} characters.</p>
      {/* No maxLength: the browser would cut a longer name without a word (a paste most of all); the form says so instead. */}
      <input
        id="key-name"
        name="name"
        type="text"
        required
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'key-name-hint key-name-error' : 'key-name-hint'}
      />
      <FieldError id="key-name-error" message={error} />
    </div>
  );
}

export function ScopePicker({ scopes, checked, error }: { scopes: ScopeOption[]; checked?: string[]; error?: string }) {
  return (
    <fieldset className="field scopes" aria-describedby={error ? 'key-scopes-hint key-scopes-error' : 'key-scopes-hint'}>
      <legend>Scopes</legend>
      <p id="key-scopes-hint" className="hint">
        The REST API serves every scope. The MCP server reads ads and organic social data only: with Website or Store alone, its
        tools list the clients and describe the metrics, and the others answer 403.
      </p>
      <div className="choices two-columns">
        {scopes.map((scope) => (
          <label key={scope.value} className="choice">
            <input type="checkbox" name="scopes" value={scope.value} defaultChecked={checked?.includes(scope.value)} />
            <span>
              <span className="choice-label">{scope.label} <code>{scope.value}</code></span>
              <span className="hint">{scope.description}</span>
            </span>
          </label>
        ))}
      </div>
      {/* Shown by CSS while Website or Store is checked without Ads or Organic social. */}
      <p className="notice mcp-scopes-notice">
        Through MCP this key can only list the clients and describe the metrics (the MCP server reads ads and organic social):
        use it with the REST API, or add Ads or Organic social.
      </p>
      <FieldError id="key-scopes-error" message={error} />
    </fieldset>
  );
}

interface ClientPickerProps {
  clients: { id: string; name: string }[];
  /** The submitted choice: 'all' or 'selected'. */
  access?: string;
  checked?: string[];
  error?: string;
}

export function ClientPicker({ clients, access = 'all', checked, error }: ClientPickerProps) {
  return (
    <fieldset className="field" aria-describedby={error ? 'key-clients-error' : undefined}>
      <legend>Clients</legend>
      <div className="choices">
        <label className="choice">
          <input type="radio" name="clientAccess" value="all" defaultChecked={access === 'all'} />
          <span>
            <span className="choice-label">All clients</span>
            <span className="hint">Including clients added later, and data assigned to no client.</span>
          </span>
        </label>
        <label className="choice">
          <input type="radio" name="clientAccess" value="selected" defaultChecked={access === 'selected'} />
          <span>
            <span className="choice-label">Only these clients</span>
          </span>
        </label>
      </div>
      {/* Shown by CSS while "Only these clients" is checked: no state to fall out of step with the form. */}
      <div className="client-list" role="group" aria-label="Clients the key may read">
        {clients.map((client) => (
          <label key={client.id} className="choice compact">
            <input type="checkbox" name="clients" value={client.id} defaultChecked={checked?.includes(client.id)} />
            <span>{client.name}</span>
          </label>
        ))}
      </div>
      <FieldError id="key-clients-error" message={error} />
    </fieldset>
  );
}

interface ExpiryFieldProps {
  options: ExpiryOptions;
  /** The submitted choice: 'never', a preset's number of days, or 'date'. */
  choice?: string;
  day?: string;
  error?: string;
}

export function ExpiryField({ options, choice = 'never', day, error }: ExpiryFieldProps) {
  return (
    <fieldset className="field expiry" aria-describedby={error ? 'key-expires-hint key-expires-error' : 'key-expires-hint'}>
      <legend>Expires</legend>
      <p id="key-expires-hint" className="hint">The key stops working at the end of its last day (UTC).</p>
      <div className="choices presets">
        <label className="choice compact">
          <input type="radio" name="expiry" value="never" defaultChecked={choice === 'never'} />
          <span>Never</span>
        </label>
        {options.presets.map((preset) => (
          <label key={preset.days} className="choice compact">
            <input type="radio" name="expiry" value={String(preset.days)} defaultChecked={choice === String(preset.days)} />
            <span>
              {preset.days} days <span className="hint">until {preset.until}</span>
            </span>
          </label>
        ))}
        <label className="choice compact">
          <input type="radio" name="expiry" value="date" defaultChecked={choice === 'date'} />
          <span>On a day</span>
        </label>
      </div>
      {/* Shown by CSS while "On a day" is checked. `min`: the picker offers no day already over. */}
      <div className="expiry-day">
        <label htmlFor="key-expires">Last day</label>
        <input
          id="key-expires"
          name="expiresOn"
          type="date"
          min={options.today}
          defaultValue={day}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'key-expires-error' : undefined}
        />
      </div>
      <FieldError id="key-expires-error" message={error} />
    </fieldset>
  );
}
