export function Divider() {
  return <hr className="tg-divider" />;
}
