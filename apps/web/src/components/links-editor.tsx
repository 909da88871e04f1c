import type { Link } from '@portal/contracts';
import { Field } from './field.js';

export type LinkDraft = Omit<Link, 'linkJson'>;

export const emptyLink: LinkDraft = {
  title: '',
  href: '',
  rel: 'related',
  type: 'text/html',
  targetType: 'web',
};

/** The links as the contract takes them (`linkJson` is free-form: the explorer sends `{}`). */
export function linksOf(drafts: readonly LinkDraft[]): Link[] {
  return drafts.map((draft) => ({ ...draft, linkJson: {} }));
}

const FIELDS: readonly { readonly name: keyof LinkDraft; readonly label: string }[] = [
  { name: 'title', label: 'Title' },
  { name: 'href', label: 'Address' },
  { name: 'rel', label: 'Relation' },
  { name: 'type', label: 'Media type' },
  { name: 'targetType', label: 'Target type' },
];

/** Rows of link fields; each field's message is the contract's, at `links[i].field`. */
export function LinksEditor(props: {
  readonly links: readonly LinkDraft[];
  readonly onChange: (links: LinkDraft[]) => void;
  readonly errors: Readonly<Record<string, string>>;
}) {
  const { links, onChange, errors } = props;
  const update = (index: number, name: keyof LinkDraft, value: string) => {
    onChange(links.map((link, at) => (at === index ? { ...link, [name]: value } : link)));
  };
  return (
    <fieldset class="links-editor">
      <legend>Links</legend>
      {errors['links'] ? <p class="field-error">{errors['links']}</p> : null}
      {links.map((link, index) => (
        <div class="link-row" key={index} data-testid="link-row">
          {FIELDS.map((field) => (
            <Field
              key={field.name}
              label={`Link ${index + 1} ${field.label.toLowerCase()}`}
              name={`links[${index}].${field.name}`}
              value={link[field.name]}
              onValue={(value) => {
                update(index, field.name, value);
              }}
              error={errors[`links[${index}].${field.name}`]}
            />
          ))}
          <button
            type="button"
            class="secondary"
            onClick={() => {
              onChange(links.filter((_, at) => at !== index));
            }}
          >
            Remove link {index + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          onChange([...links, emptyLink]);
        }}
      >
        Add a link
      </button>
    </fieldset>
  );
}
