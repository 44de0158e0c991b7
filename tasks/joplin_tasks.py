"""Templates in Joplin (`net.cozic.joplin`): AndroidWorld's four information-retrieval
tasks (tasks.textproto), as data.

Each draw seeds the notes the goal is about and 40 random notes (AndroidWorld: 100) that
escape the template's exclusion condition (tasks/apps/joplin.py); the answer is graded as
there (comma-separated items, text fuzzy, numbers exact).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from antrap_gym.tasks.apps import joplin as jp
from antrap_gym.tasks.apps.tasks_org import pick, picks
from antrap_gym.tasks.binding import P
from antrap_gym.tasks.checks import AnswerIs
from antrap_gym.tasks.steps import Answer
from antrap_gym.tasks.template import template

ANSWER = Answer(text="{answer}")
notes_q = partial(template, apps=(jp.PKG,), source="AndroidWorld", kind="answer", complexity=1.0,
                  setup=[jp.SeedNotes(P("data"))])
FOLDERS = ("Personal", "Work", "School", "Home", "Projects", "Ideas", "Recipes", "Finance", "Health",
           "Travel")

RECIPE_TITLES = ("Pancake Recipe", "Spaghetti Carbonara", "Chocolate Cake", "Chicken Alfredo",
                 "Vegetable Stir-fry", "Beef Stew", "Lasagna", "Salmon Salad", "Tacos", "Fruit Smoothie")
QUANTITIES = ("1 cup", "2 cups", "1/2 cup", "3/4 cup", "1/4 cup", "1 tablespoon", "2 tablespoons",
              "1 teaspoon", "2 teaspoons", "3 teaspoons")
INGREDIENTS = ("almond flour", "coconut sugar", "chia seeds", "tahini", "matcha powder", "acai berries",
               "goji berries", "spirulina", "maca powder", "hemp seeds", "arrowroot powder",
               "quinoa flakes", "buckwheat groats", "millet")
#: recipe bodies: {line} is the drawn ingredient's line (a subset of AndroidWorld's bodies)
RECIPE_BODIES = (
    "Ingredients:\n- 1 cup all-purpose flour\n- 1/2 cup granulated sugar\n- {line}\n"
    "- 1 teaspoon baking powder\n- 2 tablespoons unsalted butter\n- 1/4 teaspoon salt\n\n"
    "Instructions:\n1. Preheat oven to 350°F (175°C).\n2. Combine the flour, sugar and baking powder.\n"
    "3. Add butter and salt and mix well.\n4. Bake for 25-30 minutes, until golden brown.\n",
    "Ingredients:\n- {line}\n- 2 cups all-purpose flour\n- 1/2 cup granulated sugar\n"
    "- 1 tablespoon baking powder\n- 1/2 teaspoon salt\n- 1 cup milk\n\nInstructions:\n"
    "1. Preheat oven to 400°F (200°C).\n2. Combine the dry ingredients.\n3. Stir in milk.\n"
    "4. Bake for 15-18 minutes.\n",
    "Ingredients:\n- 2 cups rolled oats\n- {line}\n- 1/2 cup packed brown sugar\n"
    "- 1 teaspoon baking powder\n- 1/2 teaspoon cinnamon\n- 1/4 teaspoon salt\n\nInstructions:\n"
    "1. Preheat oven to 350°F (175°C).\n2. Mix everything until crumbly.\n3. Bake for 25-30 minutes.\n",
    "Ingredients:\n- 1 cup quinoa\n- 2 cups vegetable broth\n- 1/2 cup diced tomatoes\n"
    "- 1/4 cup chopped bell peppers\n- 1/4 cup sliced olives\n- {line}\n\nInstructions:\n"
    "1. Rinse quinoa.\n2. Bring the broth to a boil.\n3. Add the rest and simmer 15-20 minutes.\n",
    "Ingredients:\n- 1 cup cooked chickpeas\n- 1/2 cup tahini\n- 1/4 cup lemon juice\n- {line}\n"
    "- 2 cloves garlic\n- 1/4 teaspoon cumin\n\nInstructions:\n1. Process until smooth.\n"
    "2. Drizzle with olive oil before serving.\n",
    "Ingredients:\n- 1 cup cooked brown rice\n- {line}\n- 1/2 cup diced bell peppers\n"
    "- 1/4 cup sliced mushrooms\n- 1/4 cup chopped spinach\n- 1/4 cup shredded cheese\n\n"
    "Instructions:\n1. Saute the vegetables.\n2. Stir in the rice.\n3. Top with cheese and serve.\n",
)


def _title_free(title: str):
    return lambda n: title.lower() in n["title"].lower()


def _recipe(rng: np.random.Generator) -> dict:
    title, qty, ing = pick(rng, RECIPE_TITLES), pick(rng, QUANTITIES), pick(rng, INGREDIENTS)
    body = pick(rng, RECIPE_BODIES).replace("{line}", f"{qty} {ing}")
    data = jp.with_distractors(rng, [jp.note(title, body, "Recipes")], _title_free(title))
    return {"title": title, "ingredient": ing, "data": data, "answer": [qty]}


NotesRecipeIngredientCount = notes_q(
    id="NotesRecipeIngredientCount", split="train", family="NotesRecipeIngredientCount",
    goal="What quantity of {ingredient} do I need for the recipe '{title}' in the Joplin app? "
         "Express your answer in the format <amount> <unit> where both the amount and unit exactly "
         "match the format in the recipe.",
    params=_recipe, check=AnswerIs(P("answer"), kind="text", items=True),
    solution=[jp.open_app(), *jp.open_note("{title}"), ANSWER],
    doc="AndroidWorld's: the recipe note in 'Recipes' lists '<quantity> <ingredient>'; the "
        "quantity, fuzzy (0.9) as there, so '1 cup' and '1 cups' both pass.")

MEETING_TITLES = (
    "Team Weekly Sync", "Client Quarterly Review", "Project Kickoff Meeting", "Budget Planning Session",
    "Sales Strategy Discussion", "Product Roadmap Alignment", "Marketing Campaign Planning",
    "Development Sprint Review", "Customer Feedback Session", "Executive Board Meeting",
    "Financial Performance Analysis", "Product Launch Preparation", "Training Workshop for New Hires",
    "Vendor Negotiation Meeting", "Strategic Partnership Discussion", "Departmental Alignment Meeting",
    "Quality Assurance Review", "Project Status Update", "Employee Performance Evaluation",
    "Company All-Hands Meeting",
)
MEETING_BODIES = (
    "Meeting Notes:\n- Discussed project milestones\n- Assigned action items to team members\n"
    "- Reviewed budget allocation\n- Decided on next meeting date\n- Attended by {n} participants\n",
    "Meeting Minutes:\n- Presented sales performance metrics\n- Brainstormed marketing strategies\n"
    "- Addressed client concerns\n- {n} attendees were present\n",
    "Meeting Recap:\n- Analyzed customer feedback\n- Proposed product feature enhancements\n"
    "- Scheduled follow-up meetings\n- {n} individuals attended\n",
    "Meeting Summary:\n- Reviewed quarterly goals\n- Evaluated team performance\n"
    "- Identified areas for improvement\n- {n} people were present\n",
    "Meeting Highlights:\n- Reviewed project timeline\n- Discussed resource allocation\n"
    "- Collaborated on problem-solving\n- {n} attendees participated\n",
    "Meeting Agenda:\n- Review project progress\n- Discuss upcoming deadlines\n- Assign tasks\n"
    "- {n} participants were present\n",
    "Meeting Wrap-up:\n- Summarize key discussion points\n- Set action items\n"
    "- Confirm next meeting date\n- {n} participants participated\n",
    "Meeting Follow-up:\n- Review action items from previous meeting\n- Assign new tasks\n"
    "- Confirm deadlines\n- {n} individuals were present\n",
)


def _meeting(rng: np.random.Generator) -> dict:
    title, count = pick(rng, MEETING_TITLES), 5 * int(rng.integers(1, 21))
    body = pick(rng, MEETING_BODIES).replace("{n}", str(count))
    data = jp.with_distractors(rng, [jp.note(title, body, "Meeting Notes")], _title_free(title))
    return {"title": title, "data": data, "answer": [count]}


NotesMeetingAttendeeCount = notes_q(
    id="NotesMeetingAttendeeCount", split="test", family="NotesMeetingAttendeeCount",
    goal="How many attendees were present in the meeting titled '{title}' in the Joplin app? "
         "Express your answer as just a single number.",
    params=_meeting, check=AnswerIs(P("answer"), kind="number", items=True),
    solution=[jp.open_app(), *jp.open_note("{title}"), ANSWER],
    doc="AndroidWorld's: the meeting note in 'Meeting Notes' says how many attended (5 to 100, "
        "in steps of 5); that number.")

TODO_TITLES = ("Grocery List", "Meeting Agenda", "Project Proposal", "Daily Journal", "To-Do List",
               "Research Notes", "Travel Itinerary", "Recipe Collection", "Budget Spreadsheet",
               "Training Manual")
TODO_BODIES = (
    "Buy milk, eggs, bread, and cereal from the grocery store.",
    "Meeting with client at 2 PM to discuss project requirements.",
    "Call mom to wish her a happy birthday.",
    "Finish presentation slides for the team meeting tomorrow.",
    "Pick up dry cleaning from the tailor on Main Street.",
    "Review chapter 5 for upcoming history exam.",
    "Book flight tickets for vacation next month.",
    "Research new workout routines for fitness goals.",
    "Schedule dentist appointment for next week.",
    "Write thank you cards for colleagues who helped with the project.",
)


def _is_todo(rng: np.random.Generator) -> dict:
    title, is_todo = pick(rng, TODO_TITLES), pick(rng, ("True", "False"))
    body, folder = pick(rng, TODO_BODIES), pick(rng, FOLDERS)
    data = jp.with_distractors(rng, [jp.note(title, body, folder, is_todo == "True")],
                               lambda n: n["title"].lower() == title.lower())
    return {"title": title, "data": data, "answer": [is_todo]}


NotesIsTodo = notes_q(
    id="NotesIsTodo", split="train", family="NotesIsTodo",
    goal="Is the note titled '{title}' in the Joplin app marked as a todo item? Respond with either "
         "'True' if it is a todo or 'False' if not.",
    params=_is_todo, check=AnswerIs(P("answer"), kind="text", items=True),
    solution=[jp.open_app(), *jp.open_note("{title}"), ANSWER],
    doc="AndroidWorld's: one note of that title, a to-do or not (a to-do shows a checkbox); "
        "'True' or 'False', fuzzy. Weak as there: a constant guess passes half the seeds.")

COUNT_TITLES = ("Grocery List", "Meeting Agenda", "Personal Goals", "Work Tasks", "Home Improvement",
                "Study Notes", "Recipe Ideas", "Financial Plan", "Health Routine", "Travel Itinerary")
COUNT_BODIES = (
    "Buy milk, eggs, bread, and cereal from the grocery store.",
    "Discuss project updates, assign tasks, and review deadlines.",
    "Exercise 3 times a week, read 1 book per month, and save $500.",
    "Complete quarterly report, schedule team meeting, and follow up with clients.",
    "Paint the living room, fix leaky faucet, and organize closet.",
    "Review chapters 1-5 for upcoming exam, create flashcards, and practice problems.",
    "Try new pasta recipe with homemade sauce and garlic bread.",
    "Create monthly budget, track expenses, and set savings goals.",
    "Go for a 30-minute run, do yoga for flexibility, and meditate for relaxation.",
    "Book flights, reserve accommodations, and plan sightseeing activities.",
)


def _todo_count(rng: np.random.Generator) -> dict:
    folder = pick(rng, FOLDERS)
    notes = [jp.note(t, b, folder, True)
             for t, b in zip(picks(rng, COUNT_TITLES, 3), picks(rng, COUNT_BODIES, 3))]
    data = jp.with_distractors(rng, notes, lambda n: bool(n["is_todo"]) and n["folder"] == folder)
    return {"folder": folder, "data": data, "answer": [3]}


NotesTodoItemCount = notes_q(
    id="NotesTodoItemCount", split="train",
    goal="How many to-dos do I have in the '{folder}' folder in the Joplin app? Express your answer "
         "as just a single number.",
    params=_todo_count, check=AnswerIs(P("answer"), kind="number", items=True),
    solution=[jp.open_app(), *jp.open_folder("{folder}"), ANSWER],
    doc="AndroidWorld's: three to-dos in the notebook, whose other notes are plain notes. Weak "
        "as there: the answer is always 3.")
