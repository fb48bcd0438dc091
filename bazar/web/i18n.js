// Russian and English; Russian by default for a Russian browser, the choice kept locally.
const TEXT = {
  lobby: ["Lobby", "Лобби"], history: ["History", "История"], leaderboard: ["Leaderboard", "Рейтинг"],
  guest: ["Play as a guest", "Играть гостем"], name: ["Name", "Имя"], password: ["Password", "Пароль"],
  register: ["Register", "Регистрация"], login: ["Log in", "Войти"], logout: ["Log out", "Выйти"],
  newTable: ["New table", "Новый стол"], game: ["Game", "Игра"], players: ["Players", "Игроков"],
  fishMode: ["Fish", "Рыба"], for_everyone: ["for everyone", "на всех"], for_one: ["for one", "на одного"],
  moveTime: ["Time per move, s", "Время на ход, с"], rated: ["Rated", "На рейтинг"],
  access: ["Access", "Доступ"], open: ["open to all", "открытый"],
  invitation_link: ["by invitation link", "по ссылке-приглашению"],
  bots: ["Fill empty seats with bots", "Посадить ботов на свободные места"], level: ["Bot level", "Уровень ботов"],
  create: ["Create", "Создать"], openTables: ["Open tables", "Открытые столы"], join: ["Join", "Сесть"],
  watch: ["Watch", "Смотреть"], none: ["No open tables yet.", "Открытых столов пока нет."],
  seats: ["Seats", "Места"], empty: ["empty", "свободно"], waiting: ["Waiting for players", "Ждём игроков"],
  invite: ["Invitation link", "Ссылка-приглашение"], yourTurn: ["Your move", "Ваш ход"],
  turnOf: ["Move: {name}", "Ходит: {name}"], tiles: ["tiles", "кост."], bazar: ["bazar", "базар"],
  round: ["Round {n}", "Партия {n}"], draw: ["Draw", "Взять"], pass: ["Pass", "Пропустить"],
  stop: ["Stop", "Закончить ход"], matchOver: ["Match over", "Игра окончена"],
  winners: ["Winners", "Победители"], losers: ["Losers", "Проигравшие"],
  goat: ["Goat", "Козёл"], donkey: ["Donkey", "Осёл"], rematch: ["Rematch", "Реванш"], replay: ["Replay", "Повтор"],
  download: ["Download", "Скачать"], upload: ["Upload a record", "Загрузить запись"],
  roundResult: ["Round result", "Итоги партии"], fish: ["fish", "рыба"],
  commitment: ["Deal commitment (sha256 of the seed)", "Обязательство раздачи (sha256 сида)"],
  revealed: ["Seed revealed: {seed} — hash matches ✓", "Сид раскрыт: {seed} — хэш совпадает ✓"],
  mismatch: ["Seed revealed: {seed} — HASH MISMATCH", "Сид раскрыт: {seed} — ХЭШ НЕ СОВПАДАЕТ"],
  timeout: ["Interrupted: {name} ran out of time", "Прервана: у {name} кончилось время"],
  gone: ["Interrupted: {name} left the table", "Прервана: {name} покинул стол"],
  ratings: ["Rating changes", "Изменения рейтинга"], kozelRating: ["Kozel club rating", "Клубный рейтинг «Козла»"],
  skill: ["Skill (OpenSkill)", "Сила игры (OpenSkill)"], games: ["Games", "Игр"],
  profile: ["Profile", "Профиль"], spectator: ["You are watching", "Вы зритель"],
  start: ["Start", "Начало"], prev: ["Back", "Назад"], next: ["Forward", "Вперёд"], end: ["End", "Конец"],
  verified: ["deal confirmed by its seed", "раздача подтверждена сидом"], move: ["Move", "Ход"],
  leaveFirst: ["Log in first", "Сначала войдите"], seatN: ["seat {n}", "место {n}"],
  bot: ["bot", "бот"], leftEnd: ["left", "слева"], rightEnd: ["right", "справа"],
  // a player away from the table
  disconnected: ["{name} disconnected: waiting {s} s for a return", "{name}: нет связи, ждём возвращения {s} с"],
  reconnected: ["{name} is back", "{name} снова за столом"],
  replaced: ["{name} is replaced by a bot", "Вместо {name} играет бот"],
  // the boards of the game families
  upEnd: ["up", "вверх"], downEnd: ["down", "вниз"], slotEnd: ["the spinner", "к кресту"],
  engine: ["Engine", "Паровоз"], mexicanTrain: ["Mexican train", "Мексиканский поезд"],
  trainOf: ["{name}'s train", "поезд: {name}"], branch: ["branch {id}", "ветка {id}"],
  joint: ["joint {n}", "стык {n}"],
  contract: ["Bid {bid}: {name}", "Заявка {bid}: {name}"], trumpsAre: ["Trumps: {suit}", "Козыри: {suit}"],
  sidePoints: ["Points: {a} : {b}", "Очки: {a} : {b}"], tricksTaken: ["Tricks played: {n}", "Сыграно взяток: {n}"],
  bidding: ["Bidding", "Торговля"], potChips: ["Pot: {n}", "Банк: {n}"], putChips: ["in the pot {n}", "в банке {n}"],
  folded: ["folded", "сбросил"], lastMove: ["Last move", "Последний ход"],
  // the words of the moves that lay no tile, and of the variants of a play
  bid: ["Bid", "Заявка"], trumps: ["Trumps", "Козыри"], check: ["Check", "Чек"], bet: ["Bet", "Ставка"],
  call: ["Call", "Уравнять"], raise: ["Raise", "Поднять"], fold: ["Fold", "Сбросить"],
  cut: ["Cut", "Разрезать"], close: ["Close", "Закрыть"], last: ["Last tile", "Последняя"],
  announce: ["Announce", "Объявить"], challenge: ["Challenge", "Оспорить"], skip: ["Skip", "Пропуск"],
  // domino poker's combinations, as the engine names them
  "rank.No Combination": ["no combination", "без комбинации"], "rank.Pair": ["Pair", "пара"],
  "rank.Flush": ["Flush", "флеш"], "rank.Three": ["Three", "тройка"],
  "rank.Four Straight": ["Four Straight", "стрит из четырёх"], "rank.Full Hand": ["Full Hand", "фулл"],
  "rank.Five Straight": ["Five Straight", "стрит из пяти"], "rank.Four of a Kind": ["Four of a Kind", "каре"],
  "rank.Six Straight": ["Six Straight", "стрит шестёрок"], "rank.Royal Flush": ["Royal Flush", "роял-флеш"],
};

export let lang = localStorage.getItem("bazar.lang")
  || ((navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en");

export function setLang(value) {
  lang = value;
  localStorage.setItem("bazar.lang", value);
  document.documentElement.lang = value;
}

export function t(key, vars = {}) {
  const pair = TEXT[key];
  let s = pair ? pair[lang === "ru" ? 1 : 0] : key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
