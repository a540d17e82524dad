import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';

export interface RowMenuItem {
  label: string;
  run: () => void;
  danger?: boolean;
  /** A longer word for what it does, read by screen readers and shown on hover. */
  title?: string;
}

/** A row's less frequent actions behind one "More" button (arrow keys move, Enter runs, Escape closes). */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  if (!items.length) return null;
  return (
    <MenuTrigger>
      <Button className="row-menu-button" aria-label={label}>
        More ▾
      </Button>
      <Popover className="row-menu-popover" placement="bottom end">
        <Menu className="row-menu" onAction={(key) => items[Number(key)]?.run()}>
          {items.map((item, i) => (
            <MenuItem key={i} id={i} className={`row-menu-item${item.danger ? ' danger' : ''}`} textValue={item.label}>
              {item.label}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
