"""Broccoli's database: `broccoli` at its real path, with the Room entities of Broccoli 1.x
(`recipes`, `categories` and the `recipes_categories` join table), column names as the app
(and AndroidWorld's `Recipe` row) has them.

Screens read it once per build (`all()`) and write through `add`/`update`/`remove`, so
`sqlite3 .../databases/broccoli "SELECT ..."` and a pulled copy see what the app shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from antrap_gym.device.sim.storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext

PKG = "com.flauschcode.broccoli"
DB_PATH = f"/data/data/{PKG}/databases/broccoli"
#: the text columns the editor edits, in the order its form shows them
TEXT_COLUMNS = ("title", "description", "source", "servings", "preparationTime", "ingredients",
                "directions")
COLUMNS = ("recipeId", *TEXT_COLUMNS, "imageName", "favorite")


@dataclass(frozen=True, slots=True)
class Recipe:
    recipeId: int
    title: str
    description: str
    source: str
    servings: str
    preparationTime: str
    ingredients: str
    directions: str
    imageName: str
    favorite: bool


class BroccoliDb(SqliteStore):
    path = DB_PATH
    version = 5
    schema = """
CREATE TABLE recipes (recipeId INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, title TEXT NOT NULL,
    imageName TEXT, description TEXT, servings TEXT, preparationTime TEXT, source TEXT,
    ingredients TEXT, directions TEXT, favorite INTEGER NOT NULL DEFAULT 0);
CREATE TABLE categories (categoryId INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    name TEXT NOT NULL);
CREATE TABLE recipes_categories (recipeId INTEGER NOT NULL, categoryId INTEGER NOT NULL,
    PRIMARY KEY (recipeId, categoryId),
    FOREIGN KEY (recipeId) REFERENCES recipes (recipeId) ON DELETE CASCADE,
    FOREIGN KEY (categoryId) REFERENCES categories (categoryId) ON DELETE CASCADE);
CREATE INDEX index_recipes_categories_categoryId ON recipes_categories (categoryId);
CREATE TABLE room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT);
INSERT INTO room_master_table VALUES (42, 'a1c5e0f7b3d24e98c6f0a2b4d8e1f379');
"""

    @classmethod
    def of(cls, phone: PhoneContext) -> BroccoliDb:
        return phone.databases[DB_PATH]  # type: ignore[return-value]

    def all(self) -> list[Recipe]:
        """Every recipe as the list shows them: by title, then in the order added."""
        cur = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM recipes ORDER BY title, recipeId")
        return [Recipe(int(r[0]), *(str(v or "") for v in r[1:9]), bool(r[9])) for r in cur]

    def get(self, recipe_id: int) -> Recipe | None:
        cur = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM recipes WHERE recipeId = ?",
                              (recipe_id,))
        r = cur.fetchone()
        return None if r is None else Recipe(int(r[0]), *(str(v or "") for v in r[1:9]), bool(r[9]))

    def add(self, values: dict[str, str]) -> int:
        cols = ", ".join(TEXT_COLUMNS)
        cur = self.db.execute(f"INSERT INTO recipes ({cols}, imageName, favorite)"
                              f" VALUES ({', '.join('?' * len(TEXT_COLUMNS))}, '', 0)",
                              tuple(values.get(c, "") for c in TEXT_COLUMNS))
        self.revision += 1
        return int(cur.lastrowid or 0)

    def update(self, recipe_id: int, values: dict[str, str]) -> None:
        sets = ", ".join(f"{c} = ?" for c in TEXT_COLUMNS)
        self.db.execute(f"UPDATE recipes SET {sets} WHERE recipeId = ?",
                        (*(values.get(c, "") for c in TEXT_COLUMNS), recipe_id))
        self.revision += 1

    def set_favorite(self, recipe_id: int, on: bool) -> None:
        self.db.execute("UPDATE recipes SET favorite = ? WHERE recipeId = ?", (int(on), recipe_id))
        self.revision += 1

    def remove(self, recipe_id: int) -> None:
        self.db.execute("DELETE FROM recipes_categories WHERE recipeId = ?", (recipe_id,))
        self.db.execute("DELETE FROM recipes WHERE recipeId = ?", (recipe_id,))
        self.revision += 1
