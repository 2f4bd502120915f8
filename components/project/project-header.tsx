import Link from "next/link";

/** The project's banner: its background image (darkened for contrast), avatar, title and owner. */
export function ProjectBanner({
  projectId,
  title,
  owner,
  avatar,
  background,
}: {
  projectId: number;
  title: string;
  owner: string;
  avatar: string | null;
  background: string | null;
}) {
  return (
    <header
      className={
        "relative flex min-h-32 items-end gap-4 overflow-hidden rounded-lg p-4 " +
        (background ? "bg-gray-900 bg-cover bg-center text-white" : "bg-white")
      }
      style={
        background ? { backgroundImage: `linear-gradient(rgba(0,0,0,.55), rgba(0,0,0,.55)), url("${encodeURI(background)}")` } : undefined
      }
      data-testid="project-banner"
    >
      {avatar && <img src={avatar} alt="" className="h-16 w-16 shrink-0 rounded-full border-2 border-white object-cover sm:h-20 sm:w-20" />}
      <div className="min-w-0">
        <h1 className="break-words text-2xl font-bold sm:text-3xl">
          <Link href={`/projects/${projectId}`} className="hover:underline">
            {title}
          </Link>
        </h1>
        <p className={`text-sm ${background ? "text-gray-100" : "text-gray-600"}`}>by {owner}</p>
      </div>
    </header>
  );
}

/** Links to the project's about pages; `current` is the key of the page shown (null on the front page). */
export function AboutNav({
  projectId,
  pages,
  current,
}: {
  projectId: number;
  pages: { key: string; title: string }[];
  current: string | null;
}) {
  if (!pages.length) return null;
  const item = "rounded px-3 py-1 hover:bg-gray-100 focus:outline focus:outline-2 focus:outline-brand-600";
  return (
    <nav aria-label="About this project" className="flex flex-wrap gap-1 border-b border-gray-200 pb-2 text-sm">
      <Link
        href={`/projects/${projectId}`}
        aria-current={current === null ? "page" : undefined}
        className={`${item} ${current === null ? "bg-brand-50 font-semibold" : ""}`}
      >
        Home
      </Link>
      {pages.map((p) => (
        <Link
          key={p.key}
          href={`/projects/${projectId}/about/${encodeURIComponent(p.key)}`}
          aria-current={current === p.key ? "page" : undefined}
          className={`${item} ${current === p.key ? "bg-brand-50 font-semibold" : ""}`}
        >
          {p.title}
        </Link>
      ))}
    </nav>
  );
}
