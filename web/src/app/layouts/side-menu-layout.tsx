import { NavLink, Outlet, useLocation } from 'react-router-dom';
import './side-menu-layout.css';

export interface SideMenuItem {
  path: string;
  label: string;
}

/**
 * A page shell with a side menu; the selected item is the longest path the URL starts with.
 * Plain links styled as antd's inline menu; below 992 px (antd's lg) the menu becomes a bar
 * above the page that scrolls sideways, so nothing floats over the content on a phone.
 */
export function SideMenuLayout({ items, ariaLabel }: { items: SideMenuItem[]; ariaLabel: string }) {
  const { pathname } = useLocation();
  const selected = items
    .filter((item) => pathname === item.path || pathname.startsWith(`${item.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];

  return (
    <div className="side-menu-layout">
      <nav aria-label={ariaLabel} className="side-menu">
        <ul>
          {items.map((item) => (
            <li key={item.path}>
              <NavLink
                to={item.path}
                className={item === selected ? 'side-menu-item side-menu-item-selected' : 'side-menu-item'}
                aria-current={item === selected ? 'page' : undefined}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="side-menu-content">
        <Outlet />
      </div>
    </div>
  );
}
