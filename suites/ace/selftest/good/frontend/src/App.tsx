export function App() {
  return <h1>Trading</h1>;
}
