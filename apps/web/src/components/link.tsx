import type { ComponentChildren } from 'preact';
import { followLink } from '../lib/navigation.js';

export function Link(props: {
  readonly href: string;
  readonly children: ComponentChildren;
  readonly class?: string;
  readonly current?: boolean;
  readonly testId?: string;
}) {
  return (
    <a
      href={props.href}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      data-testid={props.testId}
      onClick={(event) => {
        followLink(event, props.href);
      }}
    >
      {props.children}
    </a>
  );
}
