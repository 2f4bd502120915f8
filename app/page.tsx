import { ProjectList } from "@/components/project-list";

export default function HomePage() {
  return <ProjectList />;
}
